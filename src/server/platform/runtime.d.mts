export function checkRuntime(
  what: string,
  options?: { packageJson?: string; version?: string; exit?: (code: number) => never; log?: (line: string) => void },
): void;
