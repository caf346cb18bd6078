// Izipay's documented test cards (docs/processors/sources/izipay-api.md §10) and what each does at
// `Charge/CreatePayment` here. Only these decide an outcome; any other card is refused (README.md,
// assumption 3). Expiry dates are "a elección" (§10.1): any future date.

export type CardOutcome =
  /** Authorized without the payer (no 3-D Secure, or 3DS2 frictionless). */
  | { kind: 'approve' }
  /** 3-D Secure with the payer: CreatePayment answers a V4/Charge/RedirectRequest. */
  | { kind: 'challenge' }
  /** Refused: `errorCode` and, for ACQ_001, the acquirer's `detailedErrorCode`. */
  | {
      kind: 'refuse';
      errorCode: string;
      errorMessage: string;
      detailedErrorCode: string | null;
      detailedErrorMessage: string | null;
    };

const approve = { kind: 'approve' } as const;
const challenge = { kind: 'challenge' } as const;

/** An acquirer refusal: `ACQ_001` "payment refused" with the acquirer's ISO code (§8.2). */
function acquirer(code: string, words: string): CardOutcome {
  return {
    kind: 'refuse',
    errorCode: 'ACQ_001',
    errorMessage: 'payment refused',
    detailedErrorCode: code,
    detailedErrorMessage: words,
  };
}

export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  // §10.1 "Simple accepted (PCI examples)" [MCW-quick], [php-ex] PCI.php.
  '4970100000000055': approve,
  // §10.1 3DS2 frictionless, with 3DS Method [MCW-pci-fr].
  '4970110000001029': approve,
  '5100010000000114': approve,
  '375900000010007': approve,
  // §10.1 3DS2 Data-Only success [MCW-dataonly] (authenticated without the payer).
  '4970115000002117': approve,
  '5100010000002045': approve,
  // §10.2 Izipay sandbox success cards (also success here).
  '5204740000001127': approve,
  '4970100000000014': approve,
  // §10.1 3DS1 enrolled [LY-3ds], [php-ex] PCI.3DS.php (the row's Amex fails the Luhn check, a typo of the source: not simulated).
  '4970100000000022': challenge,
  '5970100300000026': challenge,
  // §10.1 3DS2 challenge, with and without 3DS Method [MCW-pci-ch], [MCW-auth-ch].
  '4970110000001003': challenge,
  '5100010000000106': challenge,
  '375900000010015': challenge,
  '4970110000000021': challenge,
  '5100010000000049': challenge,
  '375900000000016': challenge,
  // §10.1 3DS2 authentication rejected [LY-3ds]: the code is an assumption (README, assumption 4).
  '4970110000000401': {
    kind: 'refuse',
    errorCode: 'PSP_707',
    errorMessage: '3D Secure - authentication refused by the issuer',
    detailedErrorCode: null,
    detailedErrorMessage: null,
  },
  // §10.2 Izipay sandbox decline cards ([SBX]), with the ISO codes of §8.2.
  '5103225852930567': acquirer('14', 'Número de tarjeta inválido'),
  '4019138210019096': acquirer('14', 'Número de tarjeta inválido'),
  '5102546179105000': acquirer('41', 'Tarjeta perdida'),
  '4014818108389710': acquirer('41', 'Tarjeta perdida'),
  '5102495814688105': acquirer('51', 'Fondos insuficientes o límite de crédito excedido'),
  '4003331978380689': acquirer('51', 'Fondos insuficientes o límite de crédito excedido'),
  '5106659582128224': acquirer('54', 'Tarjeta expirada'),
  '4008069640361357': acquirer('54', 'Tarjeta expirada'),
  '5114803122406407': acquirer('61', 'Excede el límite de monto de retiro'),
  '4002913238833267': acquirer('61', 'Excede el límite de monto de retiro'),
  '5112929646850374': acquirer('63', 'Violación de seguridad'),
  '4004412132480232': acquirer('63', 'Violación de seguridad'),
};

/** A card outside the documented list (README.md, assumption 3). */
export const UNKNOWN_CARD: CardOutcome = {
  kind: 'refuse',
  errorCode: 'PSP_003',
  errorMessage: 'payment refused',
  detailedErrorCode: null,
  detailedErrorMessage: 'Only the documented test cards are accepted in TEST mode',
};

export function outcomeOf(pan: string): CardOutcome {
  return TEST_CARDS[pan] ?? UNKNOWN_CARD;
}

export function brandOf(pan: string): string {
  if (/^3[47]/.test(pan)) return 'AMEX';
  if (/^3[068]/.test(pan)) return 'DINERS';
  if (/^(5[1-5]|2[2-7]|59)/.test(pan)) return 'MASTERCARD';
  return 'VISA';
}

export function isLuhnValid(pan: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = pan.length - 1; index >= 0; index -= 1) {
    let digit = Number(pan[index]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}
