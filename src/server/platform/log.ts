import { env } from '@/env';

// Structured JSON log lines. Callers pass identifiers only: never card data or secrets.
type Fields = Record<string, string | number | boolean | null | undefined>;

function write(level: 'info' | 'error', message: string, fields: Fields): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export function logInfo(message: string, fields: Fields = {}): void {
  write('info', message, fields);
}

/** Logs the error's class and message, and its stack outside production; never a request body. */
export function logError(message: string, error: unknown, fields: Fields = {}): void {
  const detail = error instanceof Error ? { error: `${error.name}: ${error.message}` } : { error: String(error) };
  const stack = env().NODE_ENV !== 'production' && error instanceof Error ? { stack: error.stack } : {};
  write('error', message, { ...fields, ...detail, ...stack });
}
