import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import en from '../../messages/en.json';
import es from '../../messages/es.json';
import { intlLocale } from './i18n';

// The console's message catalogue (src/messages/{es,en}.json, docs/DECISIONS.md "Console messages
// (issue 29)"): both languages hold the same keys with the same arguments, every message is valid
// ICU, and every key is used by the code. The scan below relies on one convention:
//   - a translator is `const t = useTranslations('ns')` or `const t = await getTranslations('ns')`
//     (any name; a literal namespace), or a helper's parameter typed with
//     `useTranslations<'ns'>` / `getTranslations<'ns'>` in the same file;
//   - it is called with a literal key, `t('key', …)`, or with a key chosen at run time only as
//     `t(`prefix.${value}`)`, where `value` has a union type (TypeScript then checks each member
//     has a message) and every key under `prefix` counts as used.
// Any other call (a key in a variable, a concatenation) fails the check: give it a literal key or
// a typed map of literal keys.

type Catalogue = { [key: string]: string | Catalogue };
const CATALOGUES: Record<'es' | 'en', Catalogue> = { es, en };
const ROOT = join(__dirname, '..', '..');
const SOURCES = ['app', 'i18n'].flatMap((dir) => sourceFiles(join(ROOT, dir)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(dir, file))
    .filter((file) => !relative(ROOT, file).startsWith(join('app', 'pay')));
}

/** Every message of a catalogue by its dotted key. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const messages = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') messages.set(path, value);
    else for (const [inner, message] of flatten(value, path)) messages.set(inner, message);
  }
  return messages;
}

/** The argument names of an ICU message (`{name}`, `{count, plural, …}`), sorted. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  for (const match of message.matchAll(/\{\s*([A-Za-z_]\w*)\s*(?:[,}])/g)) names.add(match[1]!);
  return [...names].sort();
}

type Usage = { file: string; namespaces: string[]; key: string; prefix: boolean };

/** The keys the code uses, each with the namespaces its translator may stand for. */
function usages(): { used: Usage[]; unreadable: string[] } {
  const used: Usage[] = [];
  const unreadable: string[] = [];
  for (const file of SOURCES) {
    const source = readFileSync(file, 'utf8');
    const byName = new Map<string, Set<string>>();
    const bind = (name: string, namespace: string) => byName.set(name, (byName.get(name) ?? new Set()).add(namespace));
    for (const match of source.matchAll(/const (\w+) = (?:await )?(?:useTranslations|getTranslations)\('([\w.]+)'\)/g)) {
      bind(match[1]!, match[2]!);
    }
    // Helpers given a translator: `t: Translate` with `type Translate = …Translations<'ns'>…`.
    const typed = [...source.matchAll(/(?:useTranslations|getTranslations)<'([\w.]+)'>/g)].map((match) => match[1]!);
    for (const namespace of typed) bind('t', namespace);
    for (const match of source.matchAll(/\(await getTranslations\('([\w.]+)'\)\)\('([\w.]+)'/g)) {
      used.push({ file, namespaces: [match[1]!], key: match[2]!, prefix: false });
    }
    for (const [name, namespaces] of byName) {
      const calls = source.matchAll(new RegExp(`(?<![\\w.])${name}(?:\\.(?:rich|markup|has))?\\(([^)]*)`, 'g'));
      for (const call of calls) {
        const argument = call[1]!.trim();
        const literal = /^'([\w.]+)'/.exec(argument);
        const template = /^`([\w.]+)\.\$\{/.exec(argument);
        if (literal) used.push({ file, namespaces: [...namespaces], key: literal[1]!, prefix: false });
        else if (template) used.push({ file, namespaces: [...namespaces], key: template[1]!, prefix: true });
        else unreadable.push(`${relative(ROOT, file)}: ${name}(${argument.slice(0, 60)}`);
      }
    }
  }
  return { used, unreadable };
}

describe('the console message catalogue', () => {
  const spanish = flatten(es);
  const english = flatten(en);

  it('has the same keys in both languages', () => {
    expect([...spanish.keys()].filter((key) => !english.has(key))).toEqual([]);
    expect([...english.keys()].filter((key) => !spanish.has(key))).toEqual([]);
  });

  it('gives each message the same arguments in both languages', () => {
    const differ = [...spanish]
      .filter(([key, message]) => english.has(key) && argumentsOf(message).join() !== argumentsOf(english.get(key)!).join())
      .map(([key]) => key);
    expect(differ).toEqual([]);
  });

  it('holds valid ICU messages', () => {
    for (const locale of ['es', 'en'] as const) {
      const errors: string[] = [];
      const t = createTranslator({
        locale: intlLocale(locale),
        messages: CATALOGUES[locale],
        onError: (error) => errors.push(error.message),
      });
      for (const [key, message] of flatten(CATALOGUES[locale])) {
        // Formatting with every argument set finds syntax errors; the values only need to be accepted.
        const values = Object.fromEntries(argumentsOf(message).map((name) => [name, 1]));
        (t as (key: string, values: Record<string, number>) => string)(key, values);
      }
      expect(errors).toEqual([]);
    }
  });

  it('is read by the code with keys the scan can follow', () => {
    expect(usages().unreadable).toEqual([]);
  });

  it('has no key the code does not use', () => {
    const { used } = usages();
    const isUsed = (key: string) =>
      used.some((usage) =>
        usage.namespaces.some((namespace) => {
          const full = `${namespace}.${usage.key}`;
          return usage.prefix ? key.startsWith(`${full}.`) : key === full;
        }),
      );
    expect([...spanish.keys()].filter((key) => !isUsed(key))).toEqual([]);
  });

  it('has a message for every literal key the code uses', () => {
    const { used } = usages();
    const missing = used
      .filter((usage) => !usage.prefix)
      .filter((usage) => !usage.namespaces.some((namespace) => spanish.has(`${namespace}.${usage.key}`)))
      .map((usage) => `${relative(ROOT, usage.file)}: ${usage.namespaces.join('|')} ${usage.key}`);
    expect(missing).toEqual([]);
  });

  it('replaced the per-file dictionaries', () => {
    const dictionaries = SOURCES.filter((file) => /const (?:\w+_)?TEXT\b.*=/.test(readFileSync(file, 'utf8')));
    expect(dictionaries.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
