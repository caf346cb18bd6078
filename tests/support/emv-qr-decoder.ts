// An EMVCo merchant-presented QR payload read back field by field, checked as a payer's app
// would (EMV QRCPS-MPM 1.1, the BCRP's interoperability rule; PERU-ACQUIRERS.md 4): every id
// two digits, every length two digits and true, the order and presence the spec asks, and the
// CRC. Written apart from the encoder (src/server/payments/qr/emv-qr.ts), with a table-driven
// CRC, so one cannot hide the other's mistake.

export type EmvField = { id: string; value: string };

export type DecodedQr = {
  fields: EmvField[];
  byId: Map<string, string>;
  /** Merchant account templates (26-51), each read into its sub-fields. */
  accounts: Map<string, Map<string, string>>;
  /** Tag 62's sub-fields. */
  additional: Map<string, string>;
};

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  return crc & 0xffff;
});

export function crcOf(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = ((crc << 8) ^ CRC_TABLE[((crc >> 8) ^ byte) & 0xff]!) & 0xffff;
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The TLV fields of `text`; throws on an id or length that is not two digits, or a value cut short. */
export function tlv(text: string, where = 'payload'): EmvField[] {
  const fields: EmvField[] = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id)) throw new Error(`${where}: id "${id}" at ${at} is not two digits`);
    if (!/^\d{2}$/.test(length)) throw new Error(`${where}: length "${length}" of ${id} is not two digits`);
    const size = Number(length);
    if (size === 0) throw new Error(`${where}: field ${id} is empty`);
    const value = text.slice(at + 4, at + 4 + size);
    if (value.length !== size) throw new Error(`${where}: field ${id} says ${size} characters, has ${value.length}`);
    fields.push({ id, value });
    at += 4 + size;
  }
  return fields;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** Reads and checks a payload; throws with the first rule it breaks. */
export function decodeEmvQr(payload: string): DecodedQr {
  check(/^[\x20-\x7e]+$/.test(payload), 'the payload has characters outside printable ASCII');
  check(payload.length <= 512, `the payload has ${payload.length} characters, more than EMVCo's 512`);
  const fields = tlv(payload);
  const ids = fields.map((field) => field.id);
  check(ids[0] === '00' && fields[0]!.value === '01', 'the payload format indicator (00 = 01) comes first');
  check(ids.at(-1) === '63' && fields.at(-1)!.value.length === 4, 'the CRC (63, 4 characters) comes last');
  check(new Set(ids).size === ids.length, `an id is repeated: ${ids.join(',')}`);
  const crc = fields.at(-1)!.value;
  check(crc === crcOf(payload.slice(0, -4)), `CRC ${crc} is not ${crcOf(payload.slice(0, -4))}`);
  check(/^[0-9A-F]{4}$/.test(crc), 'the CRC is 4 upper-case hex characters');
  const byId = new Map(fields.map((field) => [field.id, field.value]));
  if (byId.has('01')) check(['11', '12'].includes(byId.get('01')!), 'the point of initiation (01) is 11 or 12');
  for (const id of ['52', '53', '58', '59', '60']) check(byId.has(id), `required field ${id} is missing`);
  check(/^\d{4}$/.test(byId.get('52')!), 'the merchant category code (52) is 4 digits');
  check(/^\d{3}$/.test(byId.get('53')!), 'the currency (53) is 3 digits');
  if (byId.has('54'))
    check(/^\d{1,10}(\.\d{1,2})?$/.test(byId.get('54')!) && byId.get('54')!.length <= 13, 'the amount (54) is a decimal');
  check(/^[A-Z]{2}$/.test(byId.get('58')!), 'the country (58) is two letters');
  check(byId.get('59')!.length <= 25, 'the merchant name (59) has at most 25 characters');
  check(byId.get('60')!.length <= 15, 'the city (60) has at most 15 characters');
  const accounts = new Map<string, Map<string, string>>();
  for (const field of fields) {
    const id = Number(field.id);
    if (id >= 2 && id <= 25) continue;
    if (id < 26 || id > 51) continue;
    const sub = tlv(field.value, `template ${field.id}`);
    check(sub[0]?.id === '00', `template ${field.id} starts with its identifier (00)`);
    check(sub[0]!.value.length <= 32, `template ${field.id}'s identifier has at most 32 characters`);
    accounts.set(field.id, new Map(sub.map((each) => [each.id, each.value])));
  }
  check(accounts.size > 0 || ids.some((id) => Number(id) >= 2 && Number(id) <= 25), 'no merchant account (02-51)');
  const additional = new Map<string, string>();
  if (byId.has('62')) {
    for (const sub of tlv(byId.get('62')!, 'template 62')) {
      check(sub.value.length <= 25 || Number(sub.id) >= 10, `additional field 62.${sub.id} has at most 25 characters`);
      additional.set(sub.id, sub.value);
    }
  }
  return { fields, byId, accounts, additional };
}
