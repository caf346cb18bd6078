import { declineClassOf, type DeclineClass } from '@/server/core/domain/decline-class';

// Izipay's (micuentaweb = Lyra REST V4) error and refusal codes and the class each means to
// routing (docs/ORCHESTRATION.md 1). Codes and meanings: docs/processors/sources/izipay-api.md §8
// (ACQ/AUTH/INT/PSP prefixes from Lyra's error reference [LY-err]; PSP_001–076 from the official
// page [LY-psp]; the rest from a third-party transcription of Lyra's whole list [ang3], marked †
// there). The classes are the research's suggestion (§8: "our suggestion, not Izipay's"), kept
// here unless noted. A refused payment is not a web-service error: it is a `V4/Payment` whose
// transaction carries `errorCode` `ACQ_001` and the acquirer's `detailedErrorCode` (§8.1, §8.2),
// which is the code a decline reports.

/** One row of §8: codes (`PSP_513–516, 525`, `INT_015–INT_024`) and their class. */
type Row = readonly [codes: string, declineClass: DeclineClass];

const ROWS: readonly Row[] = [
  // §8.2 ACQ.
  ['ACQ_001', 'hard'], // "Payment refused": the class is the detailedErrorCode's (ISSUER_CODES).
  ['ACQ_999', 'technical'],
  // §8.3 AUTH (3-D Secure).
  ['AUTH_100', 'sca_required'],
  ['AUTH_101, 102, 103', 'technical'],
  ['AUTH_149', 'sca_required'],
  ['AUTH_999', 'technical'],
  // §8.4 PSP, official up to PSP_076.
  ['PSP_001, 002', 'technical'],
  ['PSP_003', 'hard'],
  ['PSP_010–016', 'technical'],
  ['PSP_020, 021', 'technical'],
  ['PSP_022, 023, 024, 026', 'hard'],
  ['PSP_025, 027', 'technical'],
  ['PSP_030–036', 'technical'],
  ['PSP_031, 035', 'hard'],
  ['PSP_040', 'technical'],
  ['PSP_041', 'hard'],
  ['PSP_042', 'soft'],
  ['PSP_043', 'technical'],
  ['PSP_050', 'hard'],
  ['PSP_051', 'technical'],
  ['PSP_052', 'sca_required'],
  ['PSP_053, 054, 055', 'technical'],
  ['PSP_056', 'hard'],
  ['PSP_057', 'technical'],
  ['PSP_075, 076', 'technical'],
  // † from here on.
  ['PSP_077–082', 'technical'],
  ['PSP_083', 'technical'],
  ['PSP_085–089', 'technical'],
  ['PSP_090–093', 'technical'],
  ['PSP_091', 'hard'],
  ['PSP_097, 098', 'technical'],
  ['PSP_099', 'soft'],
  ['PSP_100', 'technical'],
  ['PSP_101–105', 'technical'],
  // The research suggests soft; an API call limit is Izipay refusing the call, not the card: nothing was
  // done, and another processor may carry the payment (as Mercado Pago's 429 is).
  ['PSP_106', 'technical'],
  ['PSP_107, 108', 'technical'],
  ['PSP_109–117', 'technical'],
  ['PSP_136', 'sca_required'],
  ['PSP_200–210', 'technical'],
  ['PSP_202, 204, 205', 'hard'],
  ['PSP_223–237', 'technical'],
  ['PSP_301–307', 'technical'],
  ['PSP_401, 500–508', 'technical'],
  ['PSP_508', 'hard'],
  ['PSP_509', 'hard'],
  ['PSP_510–512', 'technical'],
  ['PSP_513–516, 525, 538, 540, 541, 555, 569, 576, 577, 595, 608, 632, 643, 648, 650, 652, 658', 'technical'],
  ['PSP_519–524, 550–553', 'technical'],
  ['PSP_526–533', 'hard'],
  ['PSP_534, 535, 600', 'hard'],
  ['PSP_536', 'hard'],
  ['PSP_537', 'soft'],
  ['PSP_539', 'sca_required'],
  ['PSP_542, 543', 'technical'],
  ['PSP_545–549', 'technical'],
  ['PSP_554', 'technical'],
  ['PSP_557–567', 'technical'],
  ['PSP_561, 562', 'hard'],
  ['PSP_570–575', 'technical'],
  ['PSP_573', 'hard'],
  ['PSP_578–580', 'technical'],
  ['PSP_581–599', 'technical'],
  ['PSP_583', 'hard'],
  ['PSP_601', 'hard'],
  ['PSP_602–606', 'technical'],
  ['PSP_605', 'sca_required'],
  ['PSP_607', 'hard'],
  ['PSP_609', 'soft'],
  ['PSP_610', 'technical'],
  ['PSP_611, 636', 'sca_required'],
  ['PSP_612–620', 'technical'],
  ['PSP_624, 625', 'hard'],
  ['PSP_626, 635, 637', 'technical'],
  ['PSP_638, 639', 'technical'],
  ['PSP_641, 647', 'hard'],
  ['PSP_642', 'hard'],
  ['PSP_644, 645', 'technical'],
  ['PSP_646, 716, 717', 'sca_required'],
  ['PSP_649', 'sca_required'],
  ['PSP_651, 653, 655', 'technical'],
  ['PSP_659, 660', 'technical'],
  ['PSP_665–669, 682, 683', 'technical'],
  ['PSP_670–673', 'technical'],
  ['PSP_675–679', 'technical'],
  ['PSP_677, 679', 'soft'],
  ['PSP_703', 'hard'],
  ['PSP_705, 706, 713', 'sca_required'],
  ['PSP_707, 708', 'sca_required'],
  ['PSP_718–730', 'sca_required'],
  ['PSP_718–720, 729, 730', 'technical'],
  ['PSP_728', 'soft'],
  ['PSP_903', 'technical'],
  ['PSP_992–999', 'technical'],
  // "PSP_1000–1015+": payment orders (links) and WhatsApp, not used by this connector.
  ['PSP_1000–1015', 'technical'],
  // §8.5 INT: integration errors, ours, never the card's (all `technical`) ...
  [
    'INT_001, 005, 006, 007, 009, 010, 012, 013, 014, INT_015–INT_024, INT_030, 031, 046, 050, 051, 060, 062, ' +
      'INT_064–INT_069, INT_077–INT_125, INT_130, 131, INT_203–INT_205, INT_793–INT_835, INT_836–INT_860, ' +
      'INT_865–INT_945',
    'technical',
  ],
  // ... except the card's own fields (pan, expiry month and year, security code, network, expiry
  // date): a card Izipay refuses to take is declined like a bad card (ours: Culqi's connector does
  // the same with its token's card fields).
  ['INT_040–045, 879', 'hard'],
];

/**
 * The acquirer's `detailedErrorCode` of an `ACQ_001` refusal (§8.2: passed through "without any
 * modifications … specific to each acquirer"). The micuentaweb list for Peru could not be read
 * (§15.1); these are Izipay's sandbox codes (ISO 8583, [SBX]), Lyra's stolen-card example and the
 * plugin's `vads_result` labels. Any other is classed by the domain's ISO table (unknown: `hard`).
 */
export const ISSUER_CODES: Readonly<Record<string, DeclineClass>> = {
  '14': 'hard', // número de tarjeta inválido
  '41': 'hard', // tarjeta perdida
  '43': 'hard', // stolen card
  '51': 'soft', // fondos insuficientes / límite de crédito excedido
  '54': 'hard', // tarjeta expirada
  '61': 'soft', // excede el límite de monto de retiro
  '63': 'hard', // violación de seguridad
  '02': 'soft', // contact issuer ([mag] vads_result)
  '05': 'soft', // refused ([mag] vads_result)
  '30': 'technical', // format error ([mag] vads_result)
  '96': 'technical', // technical error ([mag] vads_result)
};

/**
 * Ours, not Izipay's: the create-payment answer `V4/Charge/RedirectRequest` (or V4.1's
 * `V4/PCI/Authentication/AuthenticationSessionResponse`), Izipay's demand to authenticate the
 * payer on its own 3-D Secure pages first (§2.2, §2.3). The service cannot send the payer there
 * (see izipay-mapping.ts), so the attempt is declined `sca_required`.
 */
export const CHALLENGE_CODE = '3DS_CHALLENGE';

/** `PSP_513–516, 525` or `INT_015–INT_024, 030` → every code it names. */
export function expandCodes(spec: string): string[] {
  const codes: string[] = [];
  let prefix = '';
  let width = 3;
  for (const part of spec.split(',').map((each) => each.trim().replace(/[+†]/g, '').trim())) {
    const match = /^(?:([A-Z]+)_)?(\d+)(?:\s*[–-]\s*(?:[A-Z]+_)?(\d+))?$/.exec(part);
    if (!match) throw new Error(`not a code: ${part}`);
    if (match[1]) prefix = match[1];
    if (!prefix) throw new Error(`no prefix before ${part}`);
    const from = match[2]!;
    width = from.length;
    const to = match[3] ?? from;
    for (let code = Number(from); code <= Number(to); code += 1) {
      codes.push(`${prefix}_${String(code).padStart(Math.min(width, 3), '0')}`);
    }
  }
  return codes;
}

/** Every documented code and its class (a later row of §8 overrides an earlier range). */
export const IZIPAY_DECLINE_CLASSES: Readonly<Record<string, DeclineClass>> = Object.fromEntries(
  ROWS.flatMap(([spec, declineClass]) => expandCodes(spec).map((code) => [code, declineClass] as const)),
);

/**
 * The class of an Izipay code: an `errorCode` (`PSP_…`, `INT_…`, `AUTH_…`, `ACQ_999`), an
 * acquirer's `detailedErrorCode`, or ours. "New error codes can be added in the future" ([LY-err]):
 * an unknown one is `hard`, so an answer nobody understood is never tried again elsewhere.
 */
export function izipayDeclineClass(code: string): DeclineClass {
  if (code === CHALLENGE_CODE) return 'sca_required';
  return IZIPAY_DECLINE_CLASSES[code] ?? ISSUER_CODES[code] ?? declineClassOf(code);
}
