import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { merchantPresentedPayload, qrImageOf } from '@/server/payments/qr/emv-qr';
import {
  postNotification,
  startSimulator,
  type RecordedRequest,
  type SimReply,
  type SimRequest,
  type SimulatorMode,
} from '../simulator-http';
import {
  ANTIFRAUD_REJECT,
  ANTIFRAUD_REJECT_EMAIL,
  APPROVED_CARDS,
  BAD_PARAMETERS,
  CARD_DECLINE,
  DUPLICATE_ORDER,
  EXPIRED_CARD,
  YAPE_TEST,
} from './niubiz-test-data';

// A local Niubiz (tests/simulators/niubiz/README.md), following the research notes
// docs/processors/sources/niubiz-api.md ("§N" below): one listener, the test host
// apitestenv.vnforapps.com, which serves every API the connector uses (§1.1); accounts provisioned
// through the control API as Niubiz would (merchant code, API user, password); the security token
// and every operation's documented request and answer; QR payments a test pays through the
// control API, whose unsigned callback goes to the account's callback URL. Where the research
// found no shape, the choice is marked INVENTED here and listed in the README.

export type NiubizAccountInput = {
  merchantId: string;
  user: string;
  password: string;
  /** Where QR Manager calls back when one of the account's codes is paid ("la URL que registre el comercio", §9). */
  callbackUrl?: string;
};

type Account = Required<Omit<NiubizAccountInput, 'callbackUrl'>> & { callbackUrl: string | null };

type Outcome = { approved: true } | { approved: false; code: string; description: string };

type PaymentToken = {
  tokenId: string;
  merchantId: string;
  amount: bigint;
  purchaseNumber: string;
  expiresAt: number;
  used: boolean;
  outcome: Outcome;
  card: { masked: string; brand: string } | null;
  /** A card's number as a hash (a card registered twice keeps one token) and its expiry, yyMM. */
  cardKey: { hash: string; expiry: string } | null;
  channel: 'web' | 'pasarela';
};

/**
 * A card Niubiz keeps for the payer (`token` of an approval that registered it, [odoo]
 * demo/auth_sale-Authorized.json): charged later on the `recurrent` channel by `tokenId`.
 */
type CardToken = {
  tokenId: string;
  merchantId: string;
  ownerId: string;
  hash: string;
  /** The card's expiry's last second, yyMMddHHmmss ("280331235959" in the recorded answer). */
  expireOn: string;
  card: { masked: string; brand: string };
};

type Refund = { reference: string; amount: bigint; code: string };

export type NiubizSale = {
  merchantId: string;
  purchaseNumber: string;
  transactionId: string;
  signature: string;
  amount: bigint;
  status: 'Authorized' | 'Not Authorized' | 'Confirmed' | 'Voided';
  actionCode: string;
  description: string;
  authorizationCode: string;
  countable: boolean;
  channel: string;
  transactionDate: string;
  card: { masked: string; brand: string } | null;
  refunds: Refund[];
};

export type NiubizQr = {
  tagId: string;
  merchantId: string;
  amount: bigint;
  idc: string | null;
  /** ddMMyyyy, as sent. */
  validityDate: string;
  payload: string;
  status: 'PENDING' | 'PAID' | 'EXPIRED';
  transactionId: string | null;
  authorizationCode: string | null;
  paidAt: string | null;
};

export type NiubizSimulator = {
  url: string;
  requests: RecordedRequest[];
  addAccount(account: NiubizAccountInput): void;
  /** A mode for one account (its merchant code), or for all. */
  setMode(mode: SimulatorMode, options?: { key?: string; delayMs?: number }): void;
  /** Every security token issued so far is expired (a later call answers 401). */
  expireTokens(): void;
  sale(transactionId: string): NiubizSale | undefined;
  qr(tagId: string): NiubizQr | undefined;
  /** The payer pays a QR: marked paid, and its callback POSTed to the account's URL (the receiver's status, 0 when none answered). */
  payQr(tagId: string): Promise<number>;
  /** The last callback of a QR, sent again as Niubiz would retry it. */
  resendQrCallback(tagId: string): Promise<number>;
  close(): Promise<void>;
};

const LIMA_OFFSET_MS = 5 * 3_600_000;

/** `yyMMddHHmmss`, Lima time (§1.3, observed [K-obs]). */
function limaStamp(at: number): string {
  const lima = new Date(at - LIMA_OFFSET_MS).toISOString();
  return `${lima.slice(2, 4)}${lima.slice(5, 7)}${lima.slice(8, 10)}${lima.slice(11, 13)}${lima.slice(14, 16)}${lima.slice(17, 19)}`;
}

const digits = (length: number) => Array.from({ length }, () => String(randomInt(10))).join('');
const hex = (bytes: number) => randomBytes(bytes).toString('hex').toUpperCase();
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** `####.##`: a JSON number of at most two decimals, or the same as a string (the sandbox took `"10.5"`, [K-obs]) (§1.3). */
export function amountOf(value: unknown): bigint | null {
  let raw: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0 || Math.round(value * 100) !== value * 100) return null;
    raw = value.toFixed(2);
  } else if (typeof value === 'string') raw = value;
  else return null;
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(raw)) return null;
  const [major, minor = ''] = raw.split('.');
  const cents = BigInt(major!) * 100n + BigInt(minor.padEnd(2, '0'));
  return cents > 0n ? cents : null;
}

const decimal = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
const number = (cents: bigint) => Number(cents) / 100;

function header() {
  return { ecoreTransactionUUID: randomUUID(), ecoreTransactionDate: Date.now(), millis: randomInt(300, 900) };
}

const obj = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** The 400 "Not Authorized" envelope (§4.3, [PW-PDF]), used for every refusal that carries an action code. */
function notAuthorized(
  code: string,
  description: string,
  extra: Record<string, string> = {},
  message = 'Not Authorized',
): SimReply {
  const at = Date.now();
  return {
    status: 400,
    body: {
      errorCode: 400,
      errorMessage: message,
      header: header(),
      data: {
        ACTION_CODE: code,
        ACTION_DESCRIPTION: description,
        STATUS: message,
        TRANSACTION_DATE: limaStamp(at),
        CURRENCY: '0604',
        ...extra,
      },
    },
  };
}

/** INVENTED: the body of a 401 on the operations (§15: "Bodies for HTTP 401/406/500" not found; §16.2's pick). */
const UNAUTHORIZED: SimReply = { status: 401, body: { errorCode: 401, errorMessage: 'Unauthorized' } };

function luhn(pan: string): boolean {
  let sum = 0;
  for (let index = 0; index < pan.length; index += 1) {
    let digit = Number(pan[pan.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(pan: string): string {
  if (/^4/.test(pan)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(pan)) return 'mastercard';
  if (/^3[47]/.test(pan)) return 'amex';
  if (/^3(0|6|8)/.test(pan)) return 'dinersclub';
  return 'visa';
}

function saleBody(sale: NiubizSale) {
  const amount = number(sale.amount);
  return {
    header: header(),
    fulfillment: {
      channel: sale.channel,
      merchantId: sale.merchantId,
      terminalId: '00000001',
      captureType: 'manual',
      countable: sale.countable,
      fastPayment: false,
      signature: sale.signature,
    },
    order: {
      purchaseNumber: sale.purchaseNumber,
      amount,
      installment: 0,
      currency: 'PEN',
      authorizedAmount: amount,
      authorizationCode: sale.authorizationCode,
      actionCode: sale.actionCode,
      traceNumber: digits(5),
      transactionDate: sale.transactionDate,
      transactionId: sale.transactionId,
      // Read by [java-q] and [cs-gw] in the retrieve answer (§8).
      status: sale.status,
    },
    dataMap: {
      TERMINAL: '00000001',
      TRACE_NUMBER: digits(5),
      ECI_DESCRIPTION: 'Transaccion no autenticada pero enviada en canal seguro',
      ECI: '07',
      SIGNATURE: sale.signature,
      ...(sale.card ? { CARD: sale.card.masked, BRAND: sale.card.brand } : {}),
      MERCHANT: sale.merchantId,
      STATUS: sale.status,
      ACTION_DESCRIPTION: sale.description,
      ID_UNICO: sale.transactionId,
      AMOUNT: decimal(sale.amount),
      AUTHORIZATION_CODE: sale.authorizationCode,
      CURRENCY: '0604',
      TRANSACTION_DATE: sale.transactionDate,
      ACTION_CODE: sale.actionCode,
      ADQUIRENTE: '570002',
      PROCESS_CODE: '000000',
      TRANSACTION_ID: sale.transactionId,
    },
  };
}

/** Starts a Niubiz simulator on 127.0.0.1 (`port` 0 or absent: any free port). */
export async function startNiubizSimulator(options: { port?: number } = {}): Promise<NiubizSimulator> {
  const accounts = new Map<string, Account>();
  const byUser = new Map<string, Account>();
  const tokens = new Map<string, { merchantId: string; expiresAt: number }>();
  const paymentTokens = new Map<string, PaymentToken>();
  const cardTokens = new Map<string, CardToken>();
  const sales: NiubizSale[] = [];
  const qrs = new Map<string, NiubizQr & { callback: string | null }>();

  function addAccount(input: NiubizAccountInput): void {
    if (!/^\d{1,9}$/.test(input.merchantId)) throw new Error('a Niubiz merchant code has up to nine digits (§1.2)');
    if (!input.user || !input.password) throw new Error('a Niubiz account has an API user and password (§1.2)');
    const account: Account = { ...input, callbackUrl: input.callbackUrl ?? null };
    accounts.set(input.merchantId, account);
    byUser.set(input.user, account);
  }

  function basicAccount(request: SimRequest): Account | null {
    const match = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''));
    if (!match) return null;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const account = byUser.get(decoded.slice(0, colon));
    return account && account.password === decoded.slice(colon + 1) ? account : null;
  }

  /** The account of a raw security token (no `Bearer`, §1.3); null when missing, unknown or expired. */
  function tokenAccount(request: SimRequest): Account | null {
    const raw = String(request.headers.authorization ?? '');
    const token = tokens.get(raw);
    if (!token || token.expiresAt <= Date.now()) return null;
    return accounts.get(token.merchantId) ?? null;
  }

  /** §2: GET or POST with Basic → 201 text/plain JWT (observed, `exp = iat + 3600`); wrong → 401 `Unauthorized access`. */
  function security(request: SimRequest): SimReply {
    const account = basicAccount(request);
    if (!account) return { status: 401, html: 'Unauthorized access', headers: { 'content-type': 'text/plain' } };
    const iat = Math.floor(Date.now() / 1000);
    const jwt = [
      base64url({ alg: 'RS256', typ: 'JWT', kid: 'niubiz-simulator' }),
      base64url({ exp: iat + 3600, iat, jti: randomUUID(), iss: 'niubiz-simulator', typ: 'Bearer', username: account.user }),
      randomBytes(64).toString('base64url'),
    ].join('.');
    tokens.set(jwt, { merchantId: account.merchantId, expiresAt: (iat + 3600) * 1000 });
    return { status: 201, html: jwt, headers: { 'content-type': 'text/plain' } };
  }

  /** §4.4.1: the card to a token (observed request and answer, [K-obs]); Cybersource's reject e-mail → 670 ([PW-PDF]). */
  function antifraud(account: Account, json: unknown): SimReply {
    const body = obj(json);
    const card = obj(body.card);
    const order = obj(body.order);
    const pan = str(card.cardNumber) ?? '';
    const month = Number(str(card.expirationMonth));
    const year = Number(str(card.expirationYear));
    const amount = amountOf(order.amount);
    const purchaseNumber = str(order.purchaseNumber) ?? '';
    if (
      !/^\d{13,19}$/.test(pan) ||
      !(month >= 1 && month <= 12) ||
      !/^\d{4}$/.test(str(card.expirationYear) ?? '') ||
      !/^\d{3,4}$/.test(str(card.cvv2) ?? '') ||
      amount === null ||
      !/^\d{1,9}$/.test(purchaseNumber)
    ) {
      return notAuthorized(BAD_PARAMETERS.code, BAD_PARAMETERS.description);
    }
    if (str(obj(body.cardHolder).email)?.toLowerCase() === ANTIFRAUD_REJECT_EMAIL) {
      // INVENTED shape beyond [oracle]'s reads (errorMessage, data.MESSAGE/REASON_CODE) and [am]'s legacy "REJECT"/670.
      return notAuthorized(
        ANTIFRAUD_REJECT.code,
        ANTIFRAUD_REJECT.description,
        {
          DECISION: 'REJECT',
          MESSAGE: 'Cybersource Reject',
          REASON_CODE: '481',
          REQUEST_ID: digits(22),
        },
        'REJECT',
      );
    }
    const now = new Date();
    const expired = year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
    const outcome: Outcome = expired
      ? { approved: false, ...EXPIRED_CARD }
      : APPROVED_CARDS.has(pan) && luhn(pan)
        ? { approved: true }
        : // The listed "Denegado" cards (DECLINED_CARDS) and every card outside the lists answer alike.
          { approved: false, ...CARD_DECLINE };
    const tokenId = hex(16);
    const at = Date.now();
    paymentTokens.set(tokenId, {
      tokenId,
      merchantId: account.merchantId,
      amount,
      purchaseNumber,
      // Observed: 15 minutes after issue ([K-obs], §14).
      expiresAt: at + 15 * 60_000,
      used: false,
      outcome,
      card: { masked: `${pan.slice(0, 6)}******${pan.slice(-4)}`, brand: brandOf(pan) },
      cardKey: {
        hash: createHash('sha256').update(pan).digest('hex'),
        expiry: `${String(year % 100).padStart(2, '0')}${String(month).padStart(2, '0')}`,
      },
      channel: 'web',
    });
    return {
      status: 200,
      body: {
        header: header(),
        order: { purchaseNumber, amount: number(amount), currency: str(order.currency) ?? 'PEN' },
        token: { tokenId, expiration: at + 15 * 60_000, redirectToVbV: false, mpi: false, dataMap: {} },
        dataMap: {
          TRANSACTION_DATE: limaStamp(at),
          MESSAGE: 'Cybersource Accept',
          REQUEST_TOKEN: randomBytes(40).toString('base64'),
          DECISION: 'Accept',
          ACTION_CODE: '000',
          REASON_CODE: '100',
          REQUEST_ID: digits(22),
        },
      },
    };
  }

  /** §10 step 1: the test phone and OTP ([yape-rn]) give `data.YAPE_TRX_TOKEN`; anything else is refused. */
  function yape(account: Account, json: unknown): SimReply {
    const body = obj(json);
    const order = obj(body.order);
    const wallet = obj(body.yape);
    const amount = amountOf(order.amount);
    const purchaseNumber = str(order.purchaseNumber) ?? '';
    if (amount === null || !/^\d{1,9}$/.test(purchaseNumber) || !str(wallet.phoneNumber) || !str(wallet.otp)) {
      return notAuthorized(BAD_PARAMETERS.code, BAD_PARAMETERS.description);
    }
    if (wallet.phoneNumber !== YAPE_TEST.phone || wallet.otp !== YAPE_TEST.otp) {
      // INVENTED body: only "error text in responseMessage" is known ([ts-hook], §10).
      return {
        status: 400,
        body: { errorCode: 400, errorMessage: 'Not Authorized', responseMessage: 'Número o código de aprobación Yape inválido' },
      };
    }
    const token = hex(16);
    paymentTokens.set(token, {
      tokenId: token,
      merchantId: account.merchantId,
      amount,
      purchaseNumber,
      expiresAt: Date.now() + 15 * 60_000,
      used: false,
      outcome: { approved: true },
      card: null,
      cardKey: null,
      channel: 'pasarela',
    });
    return { status: 200, body: { header: header(), data: { YAPE_TRX_TOKEN: token } } };
  }

  /**
   * §4: a token to a sale; approval 200 (§4.2), decline 400 (§4.3), duplicate purchaseNumber 300
   * (§14). A kept card's token is charged on the `recurrent` channel (§4.4.3); a card sale with
   * `card.registerFrequent` keeps the card, its token in the approval.
   */
  function authorization(account: Account, json: unknown): SimReply {
    const body = obj(json);
    const order = obj(body.order);
    const card = obj(body.card);
    const amount = amountOf(order.amount);
    const purchaseNumber = str(order.purchaseNumber) ?? '';
    const countable = body.countable === true || body.countable === 'true';
    const channel = str(body.channel) ?? '';
    const recurrent = channel === 'recurrent';
    if (
      amount === null ||
      // "NUMÉRICO (9 MÁX.)" ([PW-PDF] §7.b.iii); the sandbox took longer ones (§14): this simulator holds to the PDF.
      !/^\d{1,9}$/.test(purchaseNumber) ||
      order.currency !== 'PEN' ||
      str(body.captureType) !== 'manual' ||
      !channel ||
      (body.countable !== true && body.countable !== false && body.countable !== 'true' && body.countable !== 'false') ||
      (recurrent ? !str(card.tokenId) || card.useFrequent !== true : !str(order.tokenId))
    ) {
      return notAuthorized(BAD_PARAMETERS.code, BAD_PARAMETERS.description);
    }
    if (sales.some((sale) => sale.merchantId === account.merchantId && sale.purchaseNumber === purchaseNumber)) {
      return notAuthorized(DUPLICATE_ORDER.code, DUPLICATE_ORDER.description);
    }
    if (recurrent) return keptCardSale(account, cardTokens.get(str(card.tokenId)!), { purchaseNumber, amount, countable });
    const token = paymentTokens.get(str(order.tokenId)!);
    // INVENTED: how Niubiz refuses an unknown, spent or expired token (674 "Sesión no válida", 682 "fuera del tiempo permitido").
    if (!token || token.merchantId !== account.merchantId || token.used) return notAuthorized('674', 'Sesión no válida');
    if (token.expiresAt <= Date.now()) return notAuthorized('682', 'Intento de Pago fuera del tiempo permitido');
    if (token.amount !== amount || token.purchaseNumber !== purchaseNumber) {
      return notAuthorized(BAD_PARAMETERS.code, BAD_PARAMETERS.description);
    }
    token.used = true;
    const approved = token.outcome.approved;
    const sale: NiubizSale = {
      merchantId: account.merchantId,
      purchaseNumber,
      transactionId: digits(15),
      signature: randomUUID(),
      amount,
      status: approved ? 'Authorized' : 'Not Authorized',
      actionCode: approved ? '000' : (token.outcome as { code: string }).code,
      description: approved ? 'Aprobado y completado con exito' : (token.outcome as { description: string }).description,
      authorizationCode: approved ? digits(6) : '',
      countable,
      channel,
      transactionDate: limaStamp(Date.now()),
      card: token.card,
      refunds: [],
    };
    sales.push(sale);
    if (approved) {
      const kept =
        card.registerFrequent === true && token.cardKey ? keepCard(account, token, str(obj(body.cardHolder).email)) : null;
      const answer = saleBody(sale);
      return {
        status: 200,
        body: kept ? { ...answer, token: { tokenId: kept.tokenId, ownerId: kept.ownerId, expireOn: kept.expireOn } } : answer,
      };
    }
    return notAuthorized(sale.actionCode, sale.description, {
      TRANSACTION_ID: sale.transactionId,
      ID_UNICO: sale.transactionId,
      SIGNATURE: sale.signature,
      AMOUNT: decimal(amount),
      ...(sale.card ? { CARD: sale.card.masked, BRAND: sale.card.brand } : {}),
      MERCHANT: account.merchantId,
    });
  }

  /** The payer's kept card (one per card and payer): the one Niubiz has already, else a new token. */
  function keepCard(account: Account, token: PaymentToken, email: string | undefined): CardToken | null {
    if (!email || !token.cardKey || !token.card) return null;
    const { hash, expiry } = token.cardKey;
    const existing = [...cardTokens.values()].find(
      (each) => each.merchantId === account.merchantId && each.ownerId === email && each.hash === hash,
    );
    if (existing) return existing;
    const year = 2000 + Number(expiry.slice(0, 2));
    const month = Number(expiry.slice(2));
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const kept: CardToken = {
      // Sixteen digits beginning with 7, as the recorded `tokenId` (research §4.2, [odoo] demo).
      tokenId: `7${digits(15)}`,
      merchantId: account.merchantId,
      ownerId: email,
      hash,
      expireOn: `${expiry}${String(lastDay).padStart(2, '0')}235959`,
      card: token.card,
    };
    cardTokens.set(kept.tokenId, kept);
    return kept;
  }

  /**
   * A `recurrent` sale of a kept card, which approves until the card expires. INVENTED: an unknown
   * token (or another merchant's) answers 263 "Error en el envío de parámetros"; one past its
   * card's expiry, 101 "Tarjeta Vencida".
   */
  function keptCardSale(
    account: Account,
    kept: CardToken | undefined,
    order: { purchaseNumber: string; amount: bigint; countable: boolean },
  ): SimReply {
    if (!kept || kept.merchantId !== account.merchantId) return notAuthorized(BAD_PARAMETERS.code, BAD_PARAMETERS.description);
    const expired = kept.expireOn < limaStamp(Date.now());
    // Only an approved card is kept: it approves until it expires.
    const outcome: Outcome = expired ? { approved: false, ...EXPIRED_CARD } : { approved: true };
    const sale: NiubizSale = {
      merchantId: account.merchantId,
      purchaseNumber: order.purchaseNumber,
      transactionId: digits(15),
      signature: randomUUID(),
      amount: order.amount,
      status: outcome.approved ? 'Authorized' : 'Not Authorized',
      actionCode: outcome.approved ? '000' : outcome.code,
      description: outcome.approved ? 'Aprobado y completado con exito' : outcome.description,
      authorizationCode: outcome.approved ? digits(6) : '',
      countable: order.countable,
      channel: 'recurrent',
      transactionDate: limaStamp(Date.now()),
      card: kept.card,
      refunds: [],
    };
    sales.push(sale);
    if (outcome.approved) return { status: 200, body: saleBody(sale) };
    return notAuthorized(sale.actionCode, sale.description, {
      TRANSACTION_ID: sale.transactionId,
      SIGNATURE: sale.signature,
      CARD: kept.card.masked,
      BRAND: kept.card.brand,
      MERCHANT: account.merchantId,
    });
  }

  const latest = (merchantId: string, purchaseNumber: string) =>
    sales.filter((sale) => sale.merchantId === merchantId && sale.purchaseNumber === purchaseNumber).at(-1);

  /** §8: the latest attempt of a purchaseNumber; INVENTED: 404 `{errorCode, errorMessage}` when none. */
  function retrieve(account: Account, purchaseNumber: string): SimReply {
    const sale = latest(account.merchantId, purchaseNumber);
    if (!sale) return { status: 404, body: { errorCode: 404, errorMessage: 'Not Found' } };
    return { status: 200, body: saleBody(sale) };
  }

  const sameLimaDay = (stamp: string) => stamp.slice(0, 6) === limaStamp(Date.now()).slice(0, 6);

  /**
   * §6.1: a sale of the day, or one held until confirmed ([PW-PDF] Annex c), → `STATUS "Voided"`
   * (the answer's shape is the reverse's, [lg]: `ACTION_CODE "400"`). Already voided → 941, not
   * voidable → 942 ([PW-PDF] Annex b; their use here is INVENTED).
   */
  function voidSale(account: Account, signature: string): SimReply {
    const sale = sales.find((each) => each.merchantId === account.merchantId && each.signature === signature);
    if (!sale) return { status: 404, body: { errorCode: 404, errorMessage: 'Not Found' } };
    if (sale.status === 'Voided') return notAuthorized('941', 'Transacción ya anulada previamente', {}, 'Not Voided');
    const voidable =
      (sale.status === 'Authorized' && (!sale.countable || sameLimaDay(sale.transactionDate))) ||
      (sale.status === 'Confirmed' && sameLimaDay(sale.transactionDate));
    if (!voidable || sale.refunds.length > 0) return notAuthorized('942', 'Operación Denegada', {}, 'Not Voided');
    sale.status = 'Voided';
    const body = saleBody(sale);
    return {
      status: 200,
      body: {
        ...body,
        order: { ...body.order, actionCode: '400', originalTraceNumber: body.order.traceNumber },
        dataMap: { ...body.dataMap, ACTION_CODE: '400', STATUS: 'Voided' },
      },
    };
  }

  /** §5: a held sale (`countable: false`) confirmed whole → `STATUS "Confirmed"`; INVENTED refusal `Not Confirmed` with 942. */
  function confirmation(account: Account, json: unknown): SimReply {
    const order = obj(obj(json).order);
    const sale = latest(account.merchantId, str(order.purchaseNumber) ?? '');
    const amount = amountOf(order.amount);
    if (!sale || str(order.transactionId) !== sale.transactionId || amount === null) {
      return notAuthorized(BAD_PARAMETERS.code, BAD_PARAMETERS.description, {}, 'Not Confirmed');
    }
    // Partial confirmation is not documented (§5, §17.4): only the authorized amount.
    if (sale.status !== 'Authorized' || sale.countable || amount !== sale.amount) {
      return notAuthorized('942', 'Operación Denegada', {}, 'Not Confirmed');
    }
    sale.status = 'Confirmed';
    return { status: 200, body: saleBody(sale) };
  }

  /**
   * §7: `{ruc?, comment, externalReferenceId (≤ 20), amount}` → `{errorCode 0, data{CODERROR "100",
   * CODIGODEVOLUCION}}` ([iub]). INVENTED: a repeated externalReferenceId answers 945 "Referencia
   * repetida"; more than what is left answers CODERROR 200; a `ruc` must be 11 digits when sent.
   */
  function refund(account: Account, transactionId: string, json: unknown): SimReply {
    const body = obj(json);
    const sale = sales.find((each) => each.merchantId === account.merchantId && each.transactionId === transactionId);
    const amount = amountOf(body.amount);
    const reference = str(body.externalReferenceId) ?? '';
    const refused = (code: string, words: string) => ({
      status: 400,
      body: { errorCode: 400, errorMessage: words, data: { CODERROR: code, DSCERROR: words } },
    });
    if (amount === null || reference.length > 20 || (body.ruc !== undefined && !/^\d{11}$/.test(str(body.ruc) ?? ''))) {
      return refused(BAD_PARAMETERS.code, BAD_PARAMETERS.description);
    }
    if (!sale || !(sale.status === 'Confirmed' || (sale.status === 'Authorized' && sale.countable))) {
      return refused('942', 'Operación Denegada');
    }
    if (reference && sale.refunds.some((each) => each.reference === reference)) return refused('945', 'Referencia repetida');
    const refunded = sale.refunds.reduce((sum, each) => sum + each.amount, 0n);
    if (refunded + amount > sale.amount) return refused('200', 'El monto excede el saldo de la venta');
    const code = digits(10);
    sale.refunds.push({ reference, amount, code });
    return {
      status: 200,
      body: {
        errorCode: 0,
        errorMessage: 'OK',
        data: { CODERROR: '100', DSCERROR: 'Devolución registrada', CODIGODEVOLUCION: code },
      },
    };
  }

  /** `ddMMyyyy` after Lima's today ("el vencimiento cuenta desde las 00:00", [qr-b]). */
  function validityOk(value: string): boolean {
    const match = /^(\d{2})(\d{2})(\d{4})$/.exec(value);
    if (!match) return false;
    const [, dd, mm, yyyy] = match;
    const today = limaStamp(Date.now()).slice(0, 6);
    const asked = `${yyyy!.slice(2)}${mm}${dd}`;
    return asked > today && Number(mm) >= 1 && Number(mm) <= 12 && Number(dd) >= 1 && Number(dd) <= 31;
  }

  /** §9: a dynamic QR (`param` list, [qr-a]/[qr-b]) → `{codeResponse 0, tagId, tagImg}`; errors `codeResponse 1` (HTTP 200). */
  async function qrAscii(account: Account, json: unknown): Promise<SimReply> {
    const body = obj(json);
    const params = new Map<string, string>();
    for (const each of Array.isArray(body.param) ? body.param : []) {
      const name = str(obj(each).name);
      const value = str(obj(each).value);
      if (name && value !== undefined) params.set(name, value);
    }
    const amount = amountOf(params.get('transactionAmount'));
    const validityDate = str(body.validityDate) ?? '';
    const error = (message: string): SimReply => ({ status: 200, body: { codeResponse: 1, message } });
    if (params.get('merchantId') !== account.merchantId) return error('Comercio no válido');
    if (params.get('transactionCurrency') !== '604') return error('Moneda no válida');
    // INVENTED: this simulator makes dynamic codes only (amount fixed, one per payment).
    if (str(body.tagType) !== 'DYNAMIC' || body.enabled !== true) return error('Solo QR dinámicos');
    if (amount === null || !/^\d+\.\d{2}$/.test(params.get('transactionAmount') ?? '')) return error('Monto no válido');
    if (!validityOk(validityDate)) return error('Fecha de validez no válida');
    const tagId = hex(12);
    // A payload no app can pay: its merchant template names the simulator.
    const payload = merchantPresentedPayload({
      accounts: [{ id: 26, identifier: 'pe.niubiz.simulator', fields: [['01', account.merchantId]] }],
      categoryCode: '5999',
      currency: '604',
      amount,
      merchantName: 'NIUBIZ SIMULATOR',
      city: 'LIMA',
      reference: tagId,
    });
    qrs.set(tagId, {
      tagId,
      merchantId: account.merchantId,
      amount,
      idc: params.get('idc') ?? null,
      validityDate,
      payload,
      status: 'PENDING',
      transactionId: null,
      authorizationCode: null,
      paidAt: null,
      callback: null,
    });
    return { status: 200, body: { codeResponse: 0, message: 'OK', tagId, tagImg: await qrImageOf(payload) } };
  }

  function expireDue(qr: NiubizQr): void {
    if (qr.status !== 'PENDING') return;
    const [, dd, mm, yyyy] = /^(\d{2})(\d{2})(\d{4})$/.exec(qr.validityDate) ?? [];
    if (`${yyyy!.slice(2)}${mm}${dd}` <= limaStamp(Date.now()).slice(0, 6)) qr.status = 'EXPIRED';
  }

  /** INVENTED answer of `qr/queryTransaction/{id}` (§9: "Response shape: not found"). */
  function qrQuery(account: Account, tagId: string): SimReply {
    const qr = qrs.get(tagId);
    if (!qr || qr.merchantId !== account.merchantId) return { status: 200, body: { codeResponse: 1, message: 'No existe' } };
    expireDue(qr);
    return {
      status: 200,
      body: {
        codeResponse: 0,
        message: 'OK',
        tagId,
        idc: qr.idc,
        status: qr.status,
        amount: decimal(qr.amount),
        currency: '604',
        transactionId: qr.transactionId,
        authorizationCode: qr.authorizationCode,
        paidAt: qr.paidAt,
      },
    };
  }

  async function deliver(qr: NiubizQr & { callback: string | null }): Promise<number> {
    const account = accounts.get(qr.merchantId);
    if (!account?.callbackUrl || !qr.callback) return 0;
    // Unsigned ([qr-b], [qr-pb]); INVENTED fields beyond the names [qr-pb]'s handler reads.
    return postNotification(account.callbackUrl, qr.callback, {});
  }

  async function payQr(tagId: string): Promise<number> {
    const qr = qrs.get(tagId);
    if (!qr) throw new Error(`no QR ${tagId}`);
    expireDue(qr);
    if (qr.status !== 'PENDING') throw new Error(`the QR is ${qr.status}`);
    qr.status = 'PAID';
    qr.transactionId = digits(15);
    qr.authorizationCode = digits(6);
    qr.paidAt = new Date().toISOString();
    qr.callback = JSON.stringify({ tagId, status: 'PAID', externalReference: qr.idc, amount: decimal(qr.amount) });
    return deliver(qr);
  }

  async function resendQrCallback(tagId: string): Promise<number> {
    const qr = qrs.get(tagId);
    if (!qr) throw new Error(`no QR ${tagId}`);
    return deliver(qr);
  }

  const API = {
    antifraud: /^\/api\.antifraud\/v1\/antifraud\/ecommerce\/(\d+)$/,
    authorization: /^\/api\.authorization\/v3\/authorization\/ecommerce\/(\d+)$/,
    retrieve: /^\/api\.authorization\/v3\/retrieve\/purchase\/(\d+)\/([^/]+)$/,
    void: /^\/api\.authorization\/v3\/void\/ecommerce\/(\d+)\/([^/]+)$/,
    confirmation: /^\/api\.confirmation\/v1\/confirmation\/ecommerce\/(\d+)$/,
    refund: /^\/api\.refund\/v1\/refund\/(\d+)\/([^/]+)$/,
    yape: /^\/api\.yape\/v2\/yape\/transaction\/(\d+)$/,
    qrQuery: /^\/api\.qr\.manager\/v1\/qr\/queryTransaction\/([^/]+)$/,
  };

  async function handle(request: SimRequest): Promise<SimReply | null> {
    const { method, path } = request;
    if (path === '/api.security/v1/security' && (method === 'GET' || method === 'POST')) return security(request);
    const account = tokenAccount(request);
    const known = Object.values(API).some((pattern) => pattern.test(path)) || path === '/api.qr.manager/v1/qr/ascii';
    if (!known) return null;
    if (!account) return UNAUTHORIZED;
    // The merchant code in the path must be the token's account's (INVENTED: answered 401).
    const pathMerchant = [API.antifraud, API.authorization, API.retrieve, API.void, API.confirmation, API.refund, API.yape]
      .map((pattern) => pattern.exec(path)?.[1])
      .find((each) => each !== undefined);
    if (pathMerchant !== undefined && pathMerchant !== account.merchantId) return UNAUTHORIZED;
    let match: RegExpExecArray | null;
    if (method === 'POST' && API.antifraud.test(path)) return antifraud(account, request.json);
    if (method === 'POST' && API.authorization.test(path)) return authorization(account, request.json);
    if (method === 'GET' && (match = API.retrieve.exec(path))) return retrieve(account, decodeURIComponent(match[2]!));
    if (method === 'PUT' && (match = API.void.exec(path))) return voidSale(account, decodeURIComponent(match[2]!));
    if (method === 'POST' && API.confirmation.test(path)) return confirmation(account, request.json);
    if (method === 'POST' && (match = API.refund.exec(path))) return refund(account, decodeURIComponent(match[2]!), request.json);
    if (method === 'POST' && API.yape.test(path)) return yape(account, request.json);
    if (method === 'POST' && path === '/api.qr.manager/v1/qr/ascii') return qrAscii(account, request.json);
    if (method === 'GET' && (match = API.qrQuery.exec(path))) return qrQuery(account, decodeURIComponent(match[1]!));
    return { status: 405, body: { errorCode: 405, errorMessage: 'Method Not Allowed' } };
  }

  function credentialOf(request: SimRequest): string | null {
    // An expired token still names its account: its mode and log entry follow the account.
    return basicAccount(request)?.merchantId ?? tokens.get(String(request.headers.authorization ?? ''))?.merchantId ?? null;
  }

  async function control(request: SimRequest): Promise<SimReply | null> {
    const action = request.path.slice('/__simulator/'.length);
    const body = obj(request.json);
    try {
      if (request.method === 'POST' && action === 'accounts') {
        addAccount({
          merchantId: str(body.merchantId) ?? '',
          user: str(body.user) ?? '',
          password: str(body.password) ?? '',
          ...(str(body.callbackUrl) ? { callbackUrl: str(body.callbackUrl)! } : {}),
        });
        return { status: 201, body: { merchantId: body.merchantId } };
      }
      if (request.method === 'POST' && action === 'tokens/expire') {
        for (const token of tokens.values()) token.expiresAt = 0;
        return { status: 200, body: { expired: tokens.size } };
      }
      let match: RegExpExecArray | null;
      if (request.method === 'POST' && (match = /^qr\/([^/]+)\/pay$/.exec(action))) {
        return { status: 200, body: { delivered: await payQr(match[1]!) } };
      }
      if (request.method === 'POST' && (match = /^qr\/([^/]+)\/notify$/.exec(action))) {
        return { status: 200, body: { delivered: await resendQrCallback(match[1]!) } };
      }
      if (request.method === 'GET' && (match = /^sales\/([^/]+)$/.exec(action))) {
        const sale = sales.find((each) => each.transactionId === match![1]);
        if (!sale) return { status: 404, body: { error: 'no such sale' } };
        const refunded = sale.refunds.reduce((sum, each) => sum + each.amount, 0n);
        return { status: 200, body: { status: sale.status, amount: String(sale.amount), refunded: String(refunded) } };
      }
    } catch (error) {
      return { status: 400, body: { error: error instanceof Error ? error.message : 'bad request' } };
    }
    return null;
  }

  const core = await startSimulator(
    {
      credentialOf,
      handle,
      // INVENTED bodies (§15: 500 body not found; no rate limit documented).
      faultReply: (mode) =>
        mode === 'errors'
          ? { status: 500, body: { errorCode: 500, errorMessage: 'Internal Server Error' } }
          : { status: 429, body: { errorCode: 429, errorMessage: 'Too Many Requests' } },
      control,
      reset: () => {
        tokens.clear();
        paymentTokens.clear();
        sales.length = 0;
        qrs.clear();
      },
    },
    { port: options.port },
  );

  return {
    url: core.url,
    requests: core.requests,
    addAccount,
    setMode: (mode, options) => core.setMode(mode, options),
    expireTokens: () => {
      for (const token of tokens.values()) token.expiresAt = 0;
    },
    sale: (transactionId) => sales.find((each) => each.transactionId === transactionId),
    qr: (tagId) => qrs.get(tagId),
    payQr,
    resendQrCallback,
    close: () => core.close(),
  };
}
