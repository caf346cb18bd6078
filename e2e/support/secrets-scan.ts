import { readFileSync } from 'node:fs';
import { FindingCollector, type KnownValues, type SecretFinding } from '../../src/server/platform/security/secret-scanner';
import type { TableScan } from '../../src/server/modules/console/secret-scan';

// The end of a test run: the services' log files scanned here line by line, their tables by the
// operator's secretScan procedure (the service owns its database), both with one scanner.
export type LogScan = { files: number; lines: number; findings: SecretFinding[] };

export function scanLogFiles(paths: readonly string[], known: KnownValues): LogScan {
  const collector = new FindingCollector();
  let lines = 0;
  for (const path of paths) {
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.length === 0) return;
        lines += 1;
        collector.add(path, { line: index + 1 }, line, known);
      });
  }
  return { files: paths.length, lines, findings: collector.list() };
}

/** Throws with the findings (masked) if any scan found a secret; otherwise the counts, to print. */
export function secretsVerdict(logs: LogScan, tables: readonly TableScan[]): string {
  const findings = [...logs.findings, ...tables.flatMap((scan) => scan.findings)];
  if (findings.length > 0)
    throw new Error(`secrets scan found secrets:\n${findings.map((each) => JSON.stringify(each)).join('\n')}`);
  const columns = tables.reduce((sum, scan) => sum + scan.columns, 0);
  const tableCount = tables.reduce((sum, scan) => sum + scan.tables, 0);
  return (
    `secrets scan: ${logs.lines} log lines in ${logs.files} files, ${columns} columns in ${tableCount} tables, ` +
    'no PAN, CVV, client secret, password or processor secret'
  );
}
