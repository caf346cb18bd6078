// What an answer must never show: stack frames, database or framework internals, source paths.
const INTERNALS = [/\bat [\w.<>$]+ \(/, /\n\s+at /, /prisma/i, /node_modules|\.ts:\d+|\.js:\d+/, /SELECT |INSERT |syntax error/i];

/** The internals patterns `text` matches (none for a clean body). */
export function internalsIn(text: string): string[] {
  return INTERNALS.filter((pattern) => pattern.test(text)).map(String);
}
