import { expect, test } from '../support/contract';
import { chargeBody, METHOD_DETAILS, operationNumber, type MethodName, postCharge } from '../support/api-client';
import { createMerchant, operator } from '../support/service';
import { expectError, expectNoDigits, expectNothingStored, newActor } from './charges-helpers';

// POST /charges request validation (docs/interface.md 2.2-2.4, docs/DESIGN.md 4 and 7): 400 code 10 in the
// envelope, `success` the string "false", `errors[].field` naming the field, nothing stored and
// never an echo of the card data sent.

type Body = ReturnType<typeof chargeBody>;
type Mutable = Record<string, unknown> & {
  payment_method: { method_name: string; method_details?: Record<string, unknown> };
  payment_details: Record<string, unknown>;
};

type Case = {
  name: string;
  method?: MethodName;
  /** Changes the valid body of `method` into the invalid one. */
  change: (body: Mutable) => void;
  /** The field that `errors` must name (a prefix match for variant mismatches). */
  field: string;
  /** Card data that the error body must not echo. */
  secrets?: string[];
  /** The operation number this case sends, when it changes it. */
  number?: string;
};

const details = (body: Mutable) => body.payment_method.method_details!;

const cases: Case[] = [
  {
    name: 'an unknown top-level property',
    change: (body) => {
      body.foo = 'bar';
    },
    field: '',
  },
  {
    name: 'YAPE method_details under CARD',
    change: (body) => {
      body.payment_method.method_details = { ...METHOD_DETAILS.YAPE };
    },
    field: 'payment_method.method_details',
  },
  {
    name: 'missing method_details',
    change: (body) => {
      delete body.payment_method.method_details;
    },
    field: 'payment_method.method_details',
  },
  {
    name: 'an unknown method_name',
    change: (body) => {
      body.payment_method.method_name = 'PAYPAL';
    },
    field: 'payment_method.method_name',
  },
  ...['0', '01', '1.5', '1234567890123', '', '-100', ' 100', '1e3'].map((amount): Case => ({
    name: `amount ${JSON.stringify(amount)}`,
    change: (body) => {
      body.payment_details.amount = amount;
    },
    field: 'payment_details.amount',
  })),
  {
    name: 'amount as a number',
    change: (body) => {
      body.payment_details.amount = 15000;
    },
    field: 'payment_details.amount',
  },
  {
    name: 'currency 978',
    change: (body) => {
      body.payment_details.currency = '978';
    },
    field: 'payment_details.currency',
  },
  {
    name: 'YAPE in currency 840',
    method: 'YAPE',
    change: (body) => {
      body.payment_details.currency = '840';
    },
    field: 'payment_details.currency',
  },
  {
    name: 'QR in currency 840',
    method: 'QR',
    change: (body) => {
      body.payment_details.currency = '840';
    },
    field: 'payment_details.currency',
  },
  {
    name: 'a PAN failing Luhn',
    change: (body) => {
      details(body).pan = '4111111111111112';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.pan',
    secrets: ['4111111111111112', '739'],
  },
  {
    name: 'a PAN with letters',
    change: (body) => {
      details(body).pan = '4111abcd11111111';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.pan',
    secrets: ['4111abcd11111111', '739'],
  },
  {
    name: 'a PAN of 11 digits',
    change: (body) => {
      details(body).pan = '41111111116';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.pan',
    secrets: ['41111111116', '739'],
  },
  {
    name: 'security_code 12',
    change: (body) => {
      details(body).pan = '4012888888881881';
      details(body).security_code = '12';
    },
    field: 'payment_method.method_details.security_code',
    secrets: ['4012888888881881', '12'],
  },
  {
    name: 'a 4-digit security code for a Visa',
    change: (body) => {
      details(body).pan = '4012888888881881';
      details(body).security_code = '7391';
    },
    field: 'payment_method.method_details.security_code',
    secrets: ['4012888888881881', '7391'],
  },
  {
    name: 'a 3-digit security code for an Amex',
    change: (body) => {
      details(body).pan = '378282246310005';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.security_code',
    secrets: ['378282246310005', '739'],
  },
  {
    name: 'expiry_date 1399',
    change: (body) => {
      details(body).pan = '4012888888881881';
      details(body).expiry_date = '1399';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.expiry_date',
    secrets: ['4012888888881881', '739'],
  },
  {
    name: 'expiry_date of three digits',
    change: (body) => {
      details(body).expiry_date = '130';
    },
    field: 'payment_method.method_details.expiry_date',
  },
  {
    name: 'a YAPE subscriber of 8 digits',
    method: 'YAPE',
    change: (body) => {
      details(body).phone = { country_code: '+51', subscriber: '98765432' };
    },
    field: 'payment_method.method_details.phone.subscriber',
  },
  {
    name: 'a YAPE country_code +52',
    method: 'YAPE',
    change: (body) => {
      details(body).phone = { country_code: '+52', subscriber: '987654321' };
    },
    field: 'payment_method.method_details.phone.country_code',
  },
  {
    name: 'a YAPE OTP of 5 digits',
    method: 'YAPE',
    change: (body) => {
      details(body).otp = '12345';
    },
    field: 'payment_method.method_details.otp',
  },
  {
    name: 'BANK_TRANSFER without redirect_url',
    method: 'BANK_TRANSFER',
    change: (body) => {
      delete details(body).redirect_url;
    },
    field: 'payment_method.method_details.redirect_url',
  },
  {
    name: 'CUOTEALO without redirect_url',
    method: 'CUOTEALO',
    change: (body) => {
      delete details(body).redirect_url;
    },
    field: 'payment_method.method_details.redirect_url',
  },
  {
    name: 'redirect_url ftp://x',
    method: 'BANK_TRANSFER',
    change: (body) => {
      details(body).redirect_url = 'ftp://x';
    },
    field: 'payment_method.method_details.redirect_url',
  },
  {
    name: 'a relative redirect_url',
    method: 'BANK_TRANSFER',
    change: (body) => {
      details(body).redirect_url = '/return';
    },
    field: 'payment_method.method_details.redirect_url',
  },
  {
    name: 'a relative callback_url',
    method: 'QR',
    change: (body) => {
      details(body).callback_url = 'callbacks';
    },
    field: 'payment_method.method_details.callback_url',
  },
  {
    name: 'a merchant_operation_number with a space',
    number: 'op 1',
    change: (body) => {
      body.merchant_operation_number = 'op 1';
    },
    field: 'merchant_operation_number',
  },
  {
    name: 'a merchant_operation_number longer than 64',
    change: (body) => {
      body.merchant_operation_number = `${String(body.merchant_operation_number)}-${'x'.repeat(64)}`;
    },
    field: 'merchant_operation_number',
  },
  {
    name: 'an empty merchant_operation_number',
    change: (body) => {
      body.merchant_operation_number = '';
    },
    field: 'merchant_operation_number',
  },
  {
    name: "channel 'pos'",
    change: (body) => {
      body.channel = 'pos';
    },
    field: 'channel',
  },
  {
    name: "action 'capture'",
    change: (body) => {
      body.action = 'capture';
    },
    field: 'action',
  },
  {
    name: 'missing payment_details.product_details',
    change: (body) => {
      delete body.payment_details.product_details;
    },
    field: 'payment_details.product_details',
  },
  {
    name: 'a PAN of an unsupported brand',
    change: (body) => {
      details(body).pan = '9999999999999995';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.pan',
    secrets: ['9999999999999995', '739'],
  },
  {
    name: 'a PAN with spaces',
    change: (body) => {
      details(body).pan = '4012 8888 8888 1881';
      details(body).security_code = '739';
    },
    field: 'payment_method.method_details.pan',
    secrets: ['4012 8888 8888 1881', '739'],
  },
  {
    name: 'an unknown property in CARD method_details',
    change: (body) => {
      details(body).pan = '4012888888881881';
      details(body).security_code = '739';
      details(body).cvv = '7391';
    },
    field: 'payment_method.method_details',
    secrets: ['4012888888881881', '739', '7391'],
  },
  {
    name: 'missing payment_details.customer',
    change: (body) => {
      delete body.payment_details.customer;
    },
    field: 'payment_details.customer',
  },
];

for (const invalid of cases) {
  test(`400 code 10 for ${invalid.name}`, async ({ request }) => {
    const { merchant, token } = await newActor(request, 'VAL');
    const method = invalid.method ?? 'CARD';
    const number = operationNumber('val');
    const body = JSON.parse(JSON.stringify(chargeBody(merchant.code, number, method))) as Body & Mutable;
    invalid.change(body);
    const sentNumber = String(body.merchant_operation_number);

    const result = await postCharge(request, token, body);
    const error = expectError(result, 400, '10', 'string');
    expect(error.errors.length).toBeGreaterThanOrEqual(1);
    const fields = error.errors.map((item) => item.field);
    if (invalid.field === '') {
      // An unknown top-level property: the error names it.
      expect(error.errors.some((item) => `${item.field ?? ''} ${item.message}`.includes('foo'))).toBe(true);
    } else if (invalid.field === 'payment_method.method_details') {
      expect(fields.length).toBeGreaterThanOrEqual(1);
      for (const field of fields) expect(field?.startsWith('payment_method.method_details')).toBe(true);
    } else {
      expect([...new Set(fields)]).toEqual([invalid.field]);
    }
    for (const secret of invalid.secrets ?? []) expectNoDigits(result.text, secret);
    if (invalid.secrets?.[0]) expect(result.text).not.toContain(invalid.secrets[0]);

    // Nothing stored: neither the operation sent nor the one the valid body would have made.
    await expectNothingStored(merchant.code, number);
    if (sentNumber !== number && sentNumber.length >= 1 && sentNumber.length <= 64) {
      await expectNothingStored(merchant.code, sentNumber);
    }
    if (sentNumber.length > 64) {
      // Too long to look up: no stored text anywhere holds it.
      const scan = await operator().secretScan.query({ TEXT: [sentNumber.slice(0, 64)] });
      expect(scan.findings.filter((finding) => finding.kind === 'TEXT')).toEqual([]);
    }
  });
}

test('every field error of one body is listed, and the PAN and code are never echoed', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'VAL');
  const number = operationNumber('multi');
  const body = JSON.parse(JSON.stringify(chargeBody(merchant.code, number, 'CARD'))) as Body & Mutable;
  details(body).pan = '4111111111111112';
  details(body).security_code = '73';
  details(body).expiry_date = '1399';
  body.payment_details.amount = '01';
  body.channel = 'pos';
  const result = await postCharge(request, token, body);
  const error = expectError(result, 400, '10', 'string');
  expect(error.errors.map((item) => item.field).sort()).toEqual(
    [
      'channel',
      'payment_details.amount',
      'payment_method.method_details.expiry_date',
      'payment_method.method_details.pan',
      'payment_method.method_details.security_code',
    ].sort(),
  );
  expect(result.text).not.toContain('4111111111111112');
  expectNoDigits(result.text, '73');
  await expectNothingStored(merchant.code, number);
});

test('the merchant_code of another merchant is 403 code 21 and stores nothing for either', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'VAL');
  const other = await createMerchant('OTH');
  const number = operationNumber('other');
  const result = await postCharge(request, token, chargeBody(other.code, number, 'CARD'));
  expectError(result, 403, '21', 'string');
  expect(result.text).not.toContain('4111111111111111');
  await expectNothingStored(other.code, number);
  await expectNothingStored(merchant.code, number);
});

test('a merchant_code that does not exist is 403 code 21', async ({ request }) => {
  const { token } = await newActor(request, 'VAL');
  const result = await postCharge(request, token, chargeBody('NOSUCHMERCHANT', operationNumber('none'), 'CARD'));
  expectError(result, 403, '21', 'string');
});

test('validation answers before the merchant check: an invalid body naming another merchant is 400 code 10', async ({
  request,
}) => {
  const { token } = await newActor(request, 'VAL');
  const other = await createMerchant('OTH');
  const number = operationNumber('order');
  const result = await postCharge(request, token, chargeBody(other.code, number, 'CARD', { amount: '0' }));
  const error = expectError(result, 400, '10', 'string');
  expect(error.errors.map((item) => item.field)).toEqual(['payment_details.amount']);
  await expectNothingStored(other.code, number);
});
