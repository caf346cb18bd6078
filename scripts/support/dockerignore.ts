import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';

// The build context as `docker build` sends it: every file of the directory but those the
// .dockerignore rules leave out, read as Docker reads them (moby's patternmatcher): one pattern
// per line relative to the context's root, `#` comments, `*` and `?` within one path segment,
// `**` across any number, a pattern that matches a directory leaves out all beneath it, and a
// `!` pattern takes a path back in; the last pattern that matches a path decides.
type Rule = { pattern: RegExp; include: boolean };

function escapeRegExp(character: string): string {
  return /[.+^${}()|[\]\\]/.test(character) ? `\\${character}` : character;
}

function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index]!;
    if (character === '*' && pattern[index + 1] === '*') {
      index += 1;
      if (pattern[index + 1] === '/') {
        index += 1;
        source += '(?:.*/)?';
      } else source += '.*';
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '[' && pattern.indexOf(']', index) > index) {
      const end = pattern.indexOf(']', index);
      source += pattern.slice(index, end + 1).replace(/^\[!/, '[^');
      index = end;
    } else if (character === '\\' && index + 1 < pattern.length) {
      index += 1;
      source += escapeRegExp(pattern[index]!);
    } else source += escapeRegExp(character);
  }
  return new RegExp(`^${source}$`);
}

/** The rules of a .dockerignore text, in order. */
export function parseDockerignore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const include = line.startsWith('!');
    const cleaned = (include ? line.slice(1).trim() : line)
      .replace(/\/+/g, '/')
      .replace(/^(\.\/|\/)+/, '')
      .replace(/\/$/, '');
    if (cleaned === '' || cleaned === '.') continue;
    rules.push({ pattern: toRegExp(cleaned), include });
  }
  return rules;
}

/** Whether the rules leave out a path (relative to the context, `/`-separated). */
export function ignoredBy(rules: readonly Rule[], path: string): boolean {
  const parts = path.split('/');
  const prefixes = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  let ignored = false;
  for (const rule of rules) {
    if (prefixes.some((prefix) => rule.pattern.test(prefix))) ignored = !rule.include;
  }
  return ignored;
}

/**
 * Copies the build context of `root` to `destination` (files, directories with their modes,
 * symbolic links as links) by the rules of root/.dockerignore; returns how many files it copied.
 */
export function copyBuildContext(root: string, destination: string): number {
  const dockerignore = join(root, '.dockerignore');
  const rules = existsSync(dockerignore) ? parseDockerignore(readFileSync(dockerignore, 'utf8')) : [];
  // Without `!` rules nothing beneath a left-out directory can come back: it is not walked.
  const mayComeBack = rules.some((rule) => rule.include);
  let files = 0;
  const walk = (relative: string) => {
    const from = join(root, relative);
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      const ignored = ignoredBy(rules, path);
      if (ignored && !(entry.isDirectory() && mayComeBack)) continue;
      const source = join(root, path);
      const target = join(destination, path);
      if (entry.isDirectory()) {
        walk(path);
        if (!ignored && !existsSync(target)) mkdirSync(target, { recursive: true });
        if (existsSync(target)) chmodSync(target, lstatSync(source).mode & 0o7777);
      } else if (!ignored) {
        mkdirSync(join(destination, relative), { recursive: true });
        if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
        else {
          copyFileSync(source, target);
          chmodSync(target, lstatSync(source).mode & 0o7777);
        }
        files += 1;
      }
    }
  };
  mkdirSync(destination, { recursive: true });
  walk('');
  return files;
}
