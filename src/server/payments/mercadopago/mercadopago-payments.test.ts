import { describe, expect, it } from 'vitest';
import { mercadoPagoNotificationUrl } from './mercadopago-payments';

// Mercado Pago takes a payment's notification_url only when it is https and reachable (cause
// 4020 otherwise, for the whole payment): the connector sends it only then, and relies on the
// application's Webhooks URL (Your integrations) for the rest.
describe('mercadoPagoNotificationUrl', () => {
  it('keeps an https URL of a public host', () => {
    const url = 'https://pagos.example.pe/api/webhooks/mercadopago/0b6c1c8e-1f7e-4d3a-9a51-2f4f1d9f7e21';
    expect(mercadoPagoNotificationUrl(url)).toBe(url);
    expect(mercadoPagoNotificationUrl('https://8.8.8.8/hook')).toBe('https://8.8.8.8/hook');
  });

  it.each([
    'http://pagos.example.pe/api/webhooks/mercadopago/1',
    'https://localhost/api/webhooks/mercadopago/1',
    'https://api.localhost:3000/hook',
    'https://127.0.0.1:3000/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://172.31.255.1/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/hook',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[fd12:3456::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'not a url',
    `https://pagos.example.pe/${'x'.repeat(240)}`,
  ])('sends none for %s', (url) => {
    expect(mercadoPagoNotificationUrl(url)).toBeNull();
  });

  it('keeps a public 172.x host outside the private range', () => {
    expect(mercadoPagoNotificationUrl('https://172.32.0.1/hook')).toBe('https://172.32.0.1/hook');
  });
});
