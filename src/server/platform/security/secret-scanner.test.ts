import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashClientSecret, hashSecret, newClientSecret, newConsolePassword } from '@/server/platform/security/secrets';
import { keyRing } from '@/server/platform/security/sealed-box';
import { FindingCollector, findSecrets, maskSecret } from './secret-scanner';

const KNOWN = {
  PAN: ['4111111111111111', '378282246310005'],
  PASSWORD: ['demo-password-1'],
  CLIENT_SECRET: ['demo-secret-change-me-0001'],
};
const kinds = (text: string) => findSecrets(text, KNOWN).map((hit) => hit.kind);

describe('findSecrets', () => {
  it('finds a known PAN anywhere, but not inside a longer number', () => {
    expect(kinds('{"level":"error","error":"bad card 4111111111111111"}')).toEqual(['PAN']);
    expect(kinds('amex 378282246310005.')).toEqual(['PAN']);
    expect(kinds('"amount":"94111111111111111"')).toEqual([]);
  });

  it('finds any PAN, CVV or expiry date given under its key, in JSON, escaped JSON or log text', () => {
    expect(kinds('{"pan":"5105105105105100"}')).toEqual(['PAN']);
    expect(kinds('{"body":"{\\"security_code\\":\\"739\\"}"}')).toEqual(['CVV']);
    expect(kinds('card cvv=1234 accepted')).toEqual(['CVV']);
    expect(kinds("{ cvc: '321' }")).toEqual(['CVV']);
    expect(kinds('{"expiry_date":"1230"}')).toEqual(['EXPIRY']);
  });

  it("lets a saved card's expiry stand beside its last 4, never beside a PAN", () => {
    expect(kinds('{"saved_card":{"bin":"411111","last4":"1111","expiry_date":"1230"}}')).toEqual([]);
    expect(kinds('{"body":"{\\"last4\\":\\"1111\\",\\"expiry_date\\":\\"1230\\"}"}')).toEqual([]);
    expect(kinds('{"pan":"5105105105105100","last4":"5100","expiry_date":"1230"}')).toEqual(['PAN']);
  });

  it('finds a client_secret or password field with a value, and known ones as they are', () => {
    expect(kinds('client_id=abc&client_secret=s3cr3t-value&grant_type=client_credentials')).toEqual(['CLIENT_SECRET']);
    expect(kinds('{"password":"hunter2hunter2"}')).toEqual(['PASSWORD']);
    expect(kinds('  client_secret   demo-secret-change-me-0001')).toEqual(['CLIENT_SECRET']);
    expect(kinds('    PLATFORM_ADMIN   admin@demo.pe      demo-password-1')).toEqual(['PASSWORD']);
  });

  it('finds issued client secrets and first console passwords by their shape', () => {
    expect(kinds(`issued ${newClientSecret()} to cli_0123`)).toEqual(['CLIENT_SECRET']);
    expect(kinds(`{"note":"${newConsolePassword()}"}`)).toEqual(['PASSWORD']);
  });

  it("finds processors' secret keys and access tokens by their shape, and webhook secrets under their key", () => {
    expect(kinds('connected sk_test_a1B2c3D4e5F6g7H8 for CQ01')).toEqual(['PROCESSOR_SECRET']);
    expect(kinds('shop 12345678 testpassword_a1B2c3D4e5F6g7H8')).toEqual(['PROCESSOR_SECRET']);
    expect(kinds('endpoint secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0d4rhf6MF4k=')).toEqual(['PROCESSOR_SECRET']);
    expect(kinds('{"token":"APP_USR-1234567890123456-112526-0123456789abcdef0123456789abcdef-123456789"}')).toEqual([
      'PROCESSOR_SECRET',
    ]);
    expect(kinds('webhook_secret=5f1e2d3c4b5a69788796a5b4c3d2e1f0')).toEqual(['PROCESSOR_SECRET']);
    // What the console shows and the tables keep in the clear: a public key and a hint.
    expect(kinds('{"publicKey":"pk_test_a1B2c3D4e5F6g7H8","secretHint":"sk_test_…g7H8"}')).toEqual([]);
    expect(kinds('{"publicKey":"TEST-0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d"}')).toEqual([]);
  });

  it('leaves clean lines, field names, empty and masked values, ids and hashes alone', async () => {
    const clean = [
      '{"time":"2026-11-22T07:00:00.000Z","level":"info","message":"request","requestId":"0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d","route":"charges","status":200}',
      '{"errors":[{"field":"payment_method.method_details.security_code","message":"Required"}]}',
      '{"pan":null,"security_code":"***","password":"","client_secret":null}',
      '{"grant_type":"password","masked_pan":"411111******1111","bin":"411111","last4":"1111"}',
      'cli_0123456789abcdef01234567 QR0123456789ABCDEF0123 0123456789abcdef0123456789abcdef',
      // standard base64 (a QR image) with a 32-character run between its `/` and `+`
      `{"qr_image":"data:image/png;base64,VtdZQVWsNVbVW/${'Ab1'.repeat(10)}Ab+4VISTlT=="}`,
      await hashSecret('demo-password-1x'),
      await hashSecret(newClientSecret()),
      hashClientSecret(newClientSecret(), keyRing([{ kid: 'local-1', key: randomBytes(32) }])),
    ];
    for (const line of clean) expect(findSecrets(line, KNOWN)).toEqual([]);
  });

  it('never carries the value, only a masked form', () => {
    const secret = newClientSecret();
    const [hit] = findSecrets(`{"client_secret":"${secret}"}`, {});
    expect(hit).toEqual({ kind: 'CLIENT_SECRET', masked: maskSecret(secret) });
    expect(hit!.masked).not.toContain(secret.slice(2, -2));
    expect(maskSecret('4111111111111111')).toBe('41************11');
    expect(maskSecret('739')).toBe('***');
  });
});

describe('FindingCollector', () => {
  it('reports each leak once per file or column, with its first line or its column, counted', () => {
    const collector = new FindingCollector();
    const log = [
      '{"level":"info","message":"service started"}',
      '{"level":"error","error":"card 4111111111111111 failed"}',
      '{"level":"error","error":"card 4111111111111111 failed"}',
      '{"level":"info","body":{"password":"demo-password-1"}}',
    ];
    log.forEach((line, index) => collector.add('service.log', { line: index + 1 }, line, KNOWN));
    const rows = ['{"brand":"VISA","last4":"1111"}', '{"security_code":"123"}', '{"security_code":"123"}'];
    for (const row of rows) collector.add('transactions', { column: 'details' }, row, KNOWN);
    collector.add('transactions', { column: 'note' }, 'ok', KNOWN);

    expect(collector.list()).toEqual([
      { where: 'service.log', line: 2, kind: 'PAN', masked: '41************11', count: 2 },
      { where: 'service.log', line: 4, kind: 'PASSWORD', masked: 'de***********-1', count: 1 },
      { where: 'transactions', column: 'details', kind: 'CVV', masked: '***', count: 2 },
    ]);
    expect(JSON.stringify(collector.list())).not.toMatch(/4111111111111111|demo-password-1|"123"/);
  });
});
