// npm run demo (after the build): starts the service, waits until it answers, then prints the
// demo sign-in on this terminal only. The service's own log never holds the demo client secret
// or password (no log line holds a secret); the person who started it needs them.
import { spawn } from 'node:child_process';
import { env } from '../src/env';
import { DEMO_USERS } from '../src/server/seed-demo';

async function waitUntilReady(origin: string, service: ReturnType<typeof spawn>): Promise<boolean> {
  for (;;) {
    if (service.exitCode !== null) return false;
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(): Promise<void> {
  const config = env();
  const service = spawn(process.execPath, ['server.js'], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => service.kill(signal));
  service.on('exit', (code) => process.exit(code ?? 1));
  if (!(await waitUntilReady(`http://127.0.0.1:${config.PORT}`, service)) || !config.SEED_DEMO) return;
  console.log(
    [
      '',
      '  Demo sign-in (printed here, never logged by the service)',
      `  Merchant ${config.DEMO_MERCHANT_CODE}: client_id ${config.DEMO_CLIENT_ID}, client_secret ${config.DEMO_CLIENT_SECRET}`,
      `  Console ${config.origin}/login, password ${config.DEMO_PASSWORD} for each of:`,
      ...DEMO_USERS.map((user) => `    ${user.role.padEnd(16)} ${user.email}`),
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
