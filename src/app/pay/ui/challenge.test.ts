import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChallengeView } from '@/server/modules/charges/payer/challenge';
import { ChallengePage, challengeNotice, type ChallengeNotice } from './challenge';
import type { PayerLang } from './messages';

// The hosted 3-D Secure challenge (docs/ORCHESTRATION.md 5) as the payer's browser gets it.
const OPEN: ChallengeView = {
  token: 'tok_0123456789abcdefXYZ',
  transactionId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
  merchantName: 'Bodega Ana',
  merchantSupportEmail: 'ayuda@bodega.pe',
  merchantOperationNumber: 'ORD-7',
  amount: 15_000n,
  currency: '604',
  maskedPan: '400000******3220',
  brand: 'VISA',
  state: 'PENDIENTE',
  stage: 'open',
  expiresAt: new Date(Date.now() + 600_000),
  triesLeft: 3,
  returnUrl: null,
};

const render = (view: ChallengeView, lang: PayerLang = 'es', notice: ChallengeNotice = null) =>
  renderToStaticMarkup(createElement(ChallengePage, { view, lang, notice }));

describe('the challenge page', () => {
  it('shows the merchant, amount, masked card, code field, sandbox hint, tries and cancel, in Spanish', () => {
    const html = render(OPEN);
    for (const text of ['Confirma que eres tú', 'Bodega Ana', 'ORD-7', 'VISA 400000******3220', 'S/ 150.00']) {
      expect(html).toContain(text);
    }
    expect(html).toContain('Sandbox: usa el código 123456');
    expect(html).toContain('Te quedan 3 intentos');
    expect(html).toContain('action="/pay/tok_0123456789abcdefXYZ/challenge?lang=es"');
    expect(html).toContain('action="/pay/tok_0123456789abcdefXYZ/challenge/cancel?lang=es"');
    const input = /<input id="challenge-code"[^>]*>/.exec(html)?.[0] ?? '';
    for (const attribute of [
      'name="code"',
      'inputMode="numeric"',
      'autoComplete="one-time-code"',
      'pattern="[0-9]{6}"',
      'required',
    ]) {
      expect(input).toContain(attribute);
    }
    expect(html).toContain('Cancelar y volver');
    expect(html).toContain('href="/pay/tok_0123456789abcdefXYZ?lang=en"');
    expect(html).not.toContain('role="alert"');
  });

  it('speaks English with ?lang=en', () => {
    const html = render({ ...OPEN, triesLeft: 1 }, 'en', 'wrong');
    for (const text of ['Confirm it&#x27;s you', 'Sandbox: use the code 123456', '1 try left', 'Cancel and go back', 'Confirm']) {
      expect(html).toContain(text);
    }
    expect(html).toContain('action="/pay/tok_0123456789abcdefXYZ/challenge?lang=en"');
    expect(html).toMatch(/role="alert"[^>]*>The code is not correct\./);
  });

  it('tells a wrong, malformed or failed code apart, and ignores other notices', () => {
    expect(render(OPEN, 'es', 'wrong')).toContain('El código no es correcto.');
    expect(render(OPEN, 'es', 'invalid')).toContain('El código tiene 6 dígitos.');
    expect(render(OPEN, 'es', 'error')).toContain('No pudimos completar tu pago.');
    expect(challengeNotice('wrong')).toBe('wrong');
    expect(challengeNotice(['wrong'])).toBeNull();
    expect(challengeNotice('<script>')).toBeNull();
  });

  it('shows the outcome and the way back to the merchant once the payment has one', () => {
    const back = 'https://shop.example.pe/return?state=DENEGADO';
    const declined = render({ ...OPEN, stage: 'closed', state: 'DENEGADO', returnUrl: back });
    expect(declined).toContain('data-state="DENEGADO"');
    expect(declined).toContain('Pago rechazado');
    expect(declined).toContain(`href="${back}"`);
    expect(declined).not.toContain('name="code"');
    expect(render({ ...OPEN, stage: 'closed', state: 'AUTORIZADO' }, 'en')).toContain('Payment made');
    expect(render({ ...OPEN, stage: 'expired', state: 'EXPIRADO' })).toContain('Pago vencido');
  });

  it('asks the payer to wait while the payment is authorized', () => {
    const html = render({ ...OPEN, stage: 'processing' });
    expect(html).toContain('Estamos confirmando tu pago.');
    expect(html).not.toContain('name="code"');
  });
});
