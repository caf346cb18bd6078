import { randomBytes, randomInt, randomUUID } from 'node:crypto';

// Keys of the shapes the processors issue, fresh for each test account: Culqi's pk_/sk_ pair
// (docs.culqi.com …/cargo-unico/tokens), Mercado Pago's public key, access token and webhook
// secret (mercadopago.com.pe/developers/…/your-integrations/credentials).

const letters = (length: number) => randomBytes(length).toString('hex').slice(0, length);
const digits = (length: number) => Array.from({ length }, () => String(randomInt(10))).join('');

export function culqiKeys() {
  return { publicKey: `pk_test_${letters(16)}`, secretKey: `sk_test_${letters(16)}` };
}

export function mercadoPagoKeys() {
  return {
    publicKey: `TEST-${randomUUID()}`,
    secretKey: `TEST-${digits(16)}-${digits(6)}-${randomBytes(16).toString('hex')}-${digits(9)}`,
    webhookSecret: randomBytes(32).toString('hex'),
  };
}
