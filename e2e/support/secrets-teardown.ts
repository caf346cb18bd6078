import { ASYNC_PORT, operator } from './service';

// After the whole suite: no text, JSON or array column of any table holds a PAN the tests
// sent, nor a JSON field named like card data (pan, security_code, expiry_date, cvv).
export const TEST_PANS = [
  '4111111111111111',
  '378282246310005',
  '5555555555554444',
  '4000000000000002',
  '4000000000009995',
  '4000000000000069',
  '4000000000000127',
  '4000000000000119',
  '4000000000005126',
];

export default async function cardDataTeardown(): Promise<void> {
  for (const admin of [operator(), operator(ASYNC_PORT)]) {
    const { columns, findings } = await admin.pciScan.query({ needles: TEST_PANS });
    if (columns < 20) throw new Error(`card-data scan read only ${columns} columns`);
    if (findings.length > 0) throw new Error(`card data stored: ${JSON.stringify(findings)}`);
    console.log(`card-data scan: ${columns} columns, no PAN or card-data field stored`);
  }
}
