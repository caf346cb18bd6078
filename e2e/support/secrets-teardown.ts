import { scanLogFiles, secretsVerdict } from './secrets-scan';
import { ASYNC_PORT, PORT, operator, serviceLogFile } from './service';
import { KNOWN_TEST_SECRETS } from './test-secrets';

// After the whole run: no log line of either service and no text, JSON, array or bytea column of
// any of their tables holds a PAN, CVV, client secret or password (scripts/support/secrets-scan.ts).
export default async function secretsTeardown(): Promise<void> {
  const ports = [PORT, ASYNC_PORT];
  const tables = await Promise.all(ports.map((port) => operator(port).secretScan.query(KNOWN_TEST_SECRETS)));
  for (const scan of tables) if (scan.columns < 20) throw new Error(`secrets scan read only ${scan.columns} columns`);
  const logs = scanLogFiles(ports.map(serviceLogFile), KNOWN_TEST_SECRETS);
  if (logs.lines < 10) throw new Error(`secrets scan read only ${logs.lines} log lines`);
  console.log(secretsVerdict(logs, tables));
}
