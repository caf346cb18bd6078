import { parse } from 'yaml';

// compose.yaml read as `docker compose` reads it, for scripts/deploy-rehearsal.ts: YAML with
// anchors and `<<` merge keys, then ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error},
// ${VAR?error} and $$ taken from the given variables (the shell's and the .env file's).
export type ComposeService = {
  environment: Record<string, string>;
  command?: string[];
  /** The healthcheck's test as a command (CMD form), when it has one and is not disabled. */
  healthcheck?: string[];
  ports: string[];
  image?: string;
};

export function interpolate(text: string, variables: Record<string, string | undefined>): string {
  const pattern = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
  return text.replace(pattern, (...match: string[]) => {
    const [whole, braced, colon, operator, word, bare] = match as [string, string?, string?, string?, string?, string?];
    if (whole === '$$') return '$';
    const name = (braced ?? bare)!;
    const value = variables[name];
    const unset = colon ? value === undefined || value === '' : value === undefined;
    if (operator === '-') return unset ? interpolate(word ?? '', variables) : value!;
    if (operator === '?') {
      if (unset) throw new Error(`compose: ${name}: ${word || 'required variable is not set'}`);
      return value!;
    }
    return value ?? '';
  });
}

function interpolateAll(node: unknown, variables: Record<string, string | undefined>): unknown {
  if (typeof node === 'string') return interpolate(node, variables);
  if (Array.isArray(node)) return node.map((each) => interpolateAll(each, variables));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, variables)]));
  return node;
}

function environmentOf(value: unknown): Record<string, string> {
  if (Array.isArray(value))
    return Object.fromEntries(
      (value as string[]).map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  return Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([key, each]) => [key, String(each)]));
}

function commandOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') throw new Error('compose: a command is a string or a list');
  return ['/bin/sh', '-c', value];
}

function healthcheckOf(value: unknown): string[] | undefined {
  const check = value as { disable?: boolean; test?: unknown } | undefined;
  if (!check || check.disable || check.test === undefined) return undefined;
  if (typeof check.test === 'string') return ['/bin/sh', '-c', check.test];
  const [form, ...rest] = (check.test as unknown[]).map(String);
  if (form === 'NONE') return undefined;
  return form === 'CMD-SHELL' ? ['/bin/sh', '-c', rest.join(' ')] : rest;
}

/** The services of a compose file, their variables filled in. */
export function parseCompose(text: string, variables: Record<string, string | undefined>): Record<string, ComposeService> {
  const document = interpolateAll(parse(text, { merge: true }), variables) as {
    services?: Record<string, Record<string, unknown>>;
  };
  return Object.fromEntries(
    Object.entries(document.services ?? {}).map(([name, service]) => [
      name,
      {
        environment: environmentOf(service.environment),
        command: commandOf(service.command),
        healthcheck: healthcheckOf(service.healthcheck),
        ports: ((service.ports ?? []) as unknown[]).map(String),
        image: typeof service.image === 'string' ? service.image : undefined,
      },
    ]),
  );
}
