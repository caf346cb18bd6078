import { useTranslations } from 'next-intl';
import { cancelledBy, declinedByProcessor, REFUND_REASONS, reversedBy, STATE_REASONS } from '@/server/core/domain/state-reasons';
import { PAYMENT_METHODS, type PaymentMethod, type RefundState, type TransactionState } from '@/server/core/domain/states';

// The one place the console turns the API's states, reasons and methods into words of the
// chosen language (ui.states in the catalogue). The API's value stays beside the words where a
// merchant matches the page against their logs (an operation's and a refund's detail).

export type ConsoleState = TransactionState | RefundState;

export const STATE_STYLE: Record<ConsoleState, string> = {
  AUTORIZADO: 'bg-emerald-100 text-emerald-900',
  LIQUIDADO: 'bg-teal-100 text-teal-900',
  PENDIENTE: 'bg-amber-100 text-amber-900',
  REGISTRADO: 'bg-slate-100 text-slate-800',
  DENEGADO: 'bg-red-100 text-red-900',
  CANCELADO: 'bg-slate-200 text-slate-800',
  EXTORNADO: 'bg-violet-100 text-violet-900',
  EXPIRADO: 'bg-orange-100 text-orange-900',
  REGISTERED: 'bg-slate-100 text-slate-800',
  IN_PROCESS: 'bg-amber-100 text-amber-900',
  RESOLVED: 'bg-emerald-100 text-emerald-900',
  REJECTED: 'bg-red-100 text-red-900',
};

/** A state's name in the console's language: transaction and refund states share one list. */
export function useStateLabel(): (state: ConsoleState) => string {
  const t = useTranslations('ui.states');
  return (state) => t(`state.${state}`);
}

/** The API's own word, beside a translated one, for matching logs; the same word is not repeated. */
function ApiValue({ value, label }: { value: string; label: string }) {
  if (value.toLocaleUpperCase('es') === label.toLocaleUpperCase('es')) return null;
  return (
    <code lang="es" className="ml-1 font-mono text-xs text-slate-500" data-testid="api-value">
      {value}
    </code>
  );
}

export function isConsoleState(value: string): value is ConsoleState {
  return Object.hasOwn(STATE_STYLE, value);
}

/**
 * A state as a coloured badge in the console's language; `apiValue` adds the API's name beside it.
 * The API objects type their state as text: one the console does not know is shown as it is.
 */
export function StateBadge({ state, apiValue = false }: { state: string; apiValue?: boolean }) {
  const stateLabel = useStateLabel();
  const label = isConsoleState(state) ? stateLabel(state) : state;
  const style = isConsoleState(state) ? STATE_STYLE[state] : 'bg-slate-100';
  return (
    <span className="inline-flex items-center">
      <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${style}`} data-state={state}>
        {label}
      </span>
      {apiValue ? <ApiValue value={state} label={label} /> : null}
    </span>
  );
}

type ReasonKey = keyof typeof STATE_REASONS | `refund_${RefundState}`;

/** The service's fixed reasons by their API text (Spanish in the API, docs/interface.md). */
const REASON_KEYS = new Map<string, ReasonKey>([
  ...Object.entries(STATE_REASONS).map(([key, text]) => [text, key as keyof typeof STATE_REASONS] as const),
  ...Object.entries(REFUND_REASONS).map(([state, text]) => [text, `refund_${state as RefundState}`] as const),
]);

/** The texts with an argument, matched by what surrounds the argument in their API form. */
function pattern(build: (argument: string) => string): RegExp {
  const [before, after] = build('\u0000').split('\u0000') as [string, string];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(before)}(.+)${escape(after)}$`);
}
const REVERSED_BY = pattern(reversedBy);
const CANCELLED_BY = pattern(cancelledBy);
const DECLINED_BY_PROCESSOR = pattern(declinedByProcessor);

/**
 * A state's reason in the console's language, with the API's text beside it (what a merchant's
 * logs hold). A processor's own message has no translation: it is shown as the processor's.
 */
export function StateReason({ reason, testId }: { reason: string; testId?: string }) {
  const t = useTranslations('ui.states');
  const known = REASON_KEYS.get(reason);
  const reversed = REVERSED_BY.exec(reason);
  const cancelled = CANCELLED_BY.exec(reason);
  const declined = DECLINED_BY_PROCESSOR.exec(reason);
  const label = known
    ? t(`reason.${known}`)
    : reversed
      ? t('reversedBy', { actor: reversed[1]! })
      : cancelled
        ? t('cancelledBy', { actor: cancelled[1]! })
        : declined
          ? t('declinedByProcessor', { code: declined[1]! })
          : null;
  return (
    <span data-testid={testId}>
      {label ?? t('processorMessage')}
      {label ? (
        <ApiValue value={reason} label={label} />
      ) : (
        <span className="ml-1">
          <q>{reason}</q>
        </span>
      )}
    </span>
  );
}

export function isPaymentMethod(value: string): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** A payment method's name in the console's language, as plain text (one it does not know, as the API gives it). */
export function useMethodLabel(): (method: string) => string {
  const t = useTranslations('ui.states');
  return (method) => (isPaymentMethod(method) ? t(`method.${method}`) : method);
}

/** A payment method's name in the console's language; `apiValue` adds the API's name beside it. */
export function MethodName({ method, apiValue = false }: { method: string; apiValue?: boolean }) {
  const label = useMethodLabel()(method);
  return (
    <>
      {label}
      {apiValue ? <ApiValue value={method} label={label} /> : null}
    </>
  );
}

const REFUND_TYPES = ['TOTAL', 'PARTIAL'] as const;

/** A refund's type (TOTAL, PARTIAL) in the console's language, with the API's name beside it. */
export function RefundType({ type }: { type: string }) {
  const t = useTranslations('ui.states');
  const label = (REFUND_TYPES as readonly string[]).includes(type)
    ? t(`refundType.${type as (typeof REFUND_TYPES)[number]}`)
    : type;
  return (
    <>
      {label}
      <ApiValue value={type} label={label} />
    </>
  );
}

/** Several payment methods' names, in a sentence's list ("Tarjeta, Yape"). */
export function MethodNames({ methods }: { methods: readonly string[] }) {
  const label = useMethodLabel();
  return <>{methods.map(label).join(', ')}</>;
}

/** The fields of a payment method's details the console shows, by their API name. */
export const DETAIL_FIELDS = [
  'masked_pan',
  'brand',
  'bin',
  'last_pan',
  'card_type',
  'card_country',
  'issuer',
  'phone',
  'redirect_url',
  'callback_url',
] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];

export function isDetailField(value: string): value is DetailField {
  return (DETAIL_FIELDS as readonly string[]).includes(value);
}

/** A payment method detail's label in the console's language (its API name is in the docs). */
export function DetailLabel({ field }: { field: DetailField }) {
  const t = useTranslations('ui.states');
  return <>{t(`field.${field}`)}</>;
}

/** A state's name in the console's language, as plain text (one it does not know, as it is). */
export function StateName({ state }: { state: string }) {
  const stateLabel = useStateLabel();
  return <>{isConsoleState(state) ? stateLabel(state) : state}</>;
}
