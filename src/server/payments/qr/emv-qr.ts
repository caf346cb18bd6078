// Peru's interoperable QR (the BCRP's rule adopts EMVCo's merchant-presented mode, so Yape, Plin
// and the banks' apps read each other's codes; docs/processors/emv-qr.md): a payload of fields,
// each a two-digit id, a two-digit length and the value, closed by a CRC. The merchant account
// template comes from the provider the merchant is enrolled with; the sandbox's is fake.

import QRCode from 'qrcode';

/** A PNG data URI of the code a payer's app scans: 256 pixels, medium error correction. */
export function qrImageOf(payload: string): Promise<string> {
  return QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 1, width: 256 });
}

/** One merchant account template (ids 26 to 51): its sub-field 00 names the network or provider. */
export type MerchantAccount = { id: number; identifier: string; fields?: readonly (readonly [string, string])[] };

export type QrPayment = {
  accounts: readonly MerchantAccount[];
  /** ISO 18245 merchant category code, 4 digits. */
  categoryCode: string;
  /** ISO 4217 numeric (604: PEN). */
  currency: string;
  /** Minor units; the payload carries major units with the currency's two decimals. */
  amount: bigint;
  /** At most 25 characters. */
  merchantName: string;
  /** At most 15 characters. */
  city: string;
  /** Unique per payment (tag 62, sub-field 05: reference label), at most 25 characters. */
  reference: string;
  /** The merchant's own number for it (tag 62, sub-field 01: bill number), at most 25 characters. */
  billNumber?: string;
};

/** One field: id, length (two digits) and value. Its value must fit in 99 characters. */
export function emvField(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new Error(`EMV QR id ${id} is not two digits`);
  if (value.length === 0 || value.length > 99) throw new Error(`EMV QR field ${id} has ${value.length} characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR), 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** EMVCo's characters for names: the payer's app shows them, so nothing outside printable ASCII. */
function plain(text: string, max: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
  return (ascii || '-').slice(0, max);
}

function majorUnits(amount: bigint): string {
  const cents = amount.toString().padStart(3, '0');
  return `${cents.slice(0, -2)}.${cents.slice(-2)}`;
}

/**
 * A dynamic (one code per payment, `01` = `12`) merchant-presented payload: the amount fixed, so
 * the payer's app does not ask for it, and the CRC over everything before its value.
 */
export function merchantPresentedPayload(payment: QrPayment): string {
  const accounts = payment.accounts.map(({ id, identifier, fields = [] }) => {
    if (id < 26 || id > 51) throw new Error(`EMV QR merchant account template id ${id} is outside 26-51`);
    if (identifier.length > 32) throw new Error('an EMV QR template identifier has at most 32 characters');
    return emvField(String(id), [emvField('00', identifier), ...fields.map(([sub, value]) => emvField(sub, value))].join(''));
  });
  const additional = [
    ...(payment.billNumber ? [emvField('01', plain(payment.billNumber, 25))] : []),
    emvField('05', plain(payment.reference, 25)),
  ].join('');
  const body = [
    emvField('00', '01'),
    emvField('01', '12'),
    ...accounts,
    emvField('52', payment.categoryCode),
    emvField('53', payment.currency),
    emvField('54', majorUnits(payment.amount)),
    emvField('58', 'PE'),
    emvField('59', plain(payment.merchantName, 25)),
    emvField('60', plain(payment.city, 15)),
    emvField('62', additional),
  ].join('');
  const open = `${body}6304`;
  return `${open}${crc16(open)}`;
}
