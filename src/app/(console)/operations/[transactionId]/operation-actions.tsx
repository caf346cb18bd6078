'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { consoleClient } from '../../../console-ui/trpc-client';
import { FormProblem, useConsoleAction } from '../../../console-ui/use-console-action';
import { formText } from '../../../console-ui/form-text';
import { ActionError, Confirm } from '../../../console-ui/form-kit';
import { DANGER_OUTLINE_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { centsOfInput, inputOfCents } from '../../../console-ui/amount-input';
import { money } from '../../../console-ui/format';

/** What a capture may take: `authorized` cents, before `before` (written in the page's language). */
type Capturable = { transactionId: string; authorized: string; currency: string; before: string };
/** What a refund may take: `refundable` cents; `whole` when nothing was refunded yet (TOTAL). */
type Refundable = { transactionId: string; refundable: string; currency: string; whole: boolean };

type Props = {
  cancel: { transactionId: string; to: 'CANCELADO' | 'EXTORNADO' } | null;
  captures: Capturable[];
  refunds: Refundable[];
  /** Why nothing can be cancelled, in the page's language; null when it can be. */
  cannotCancel: string | null;
};

/**
 * The operation's actions, and what the last one did: the notice outlives the action's own
 * control, which the refreshed page no longer offers (a captured payment has no Capture).
 */
export function OperationActions({ cancel, captures, refunds, cannotCancel }: Props) {
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      {done !== null ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="action-done">
          {done}
        </p>
      ) : null}
      {cancel ? <CancelAction {...cancel} onDone={setDone} /> : <p className="text-sm text-slate-600">{cannotCancel}</p>}
      {captures.map((capture) => (
        <CaptureAction key={capture.transactionId} {...capture} onDone={setDone} />
      ))}
      {refunds.map((refund) => (
        <RefundAction key={refund.transactionId} {...refund} onDone={setDone} />
      ))}
    </div>
  );
}

type Done = { onDone: (text: string) => void };

function CancelAction({ transactionId, to, onDone }: NonNullable<Props['cancel']> & Done) {
  const t = useTranslations('operations.detail.operationActions');
  const [label, confirm, consequence] = [t(`states.${to}.label`), t(`states.${to}.confirm`), t(`states.${to}.consequence`)];
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useConsoleAction();
  if (!confirming) {
    // Disabled until hydrated (busy): a click before would do nothing.
    return (
      <button type="button" disabled={busy} onClick={() => setConfirming(true)} className={DANGER_OUTLINE_BUTTON}>
        {label}
      </button>
    );
  }
  return (
    <div className="space-y-2">
      <Confirm
        id="cancel"
        title={t('ask', { action: label })}
        body={consequence}
        yes={confirm}
        no={t('no')}
        busy={busy}
        onYes={() =>
          run(
            () => consoleClient.console.cancel.mutate({ transactionId }),
            () => {
              setConfirming(false);
              onDone(t(`done.${to}`));
            },
          )
        }
        onNo={() => setConfirming(false)}
      />
      <ActionError message={error} />
    </div>
  );
}

function RefundAction({ transactionId, refundable, currency, whole, onDone }: Refundable & Done) {
  const t = useTranslations('operations.detail.operationActions');
  const format = useFormatter();
  return (
    <AmountForm
      open={t('refund')}
      text={t('refundText', { amount: money(format, refundable, currency) })}
      amountLabel={t('refundAmount')}
      max={refundable}
      currency={currency}
      submit={t('register')}
      act={(cents, form) =>
        consoleClient.console.refund.mutate({
          transactionId,
          // All of it, with nothing refunded before, is a TOTAL refund; anything else a PARTIAL one.
          ...(whole && cents === refundable ? {} : { amount: cents }),
          additional_fields: { canal: 'console', reason: formText(form, 'reason'), description: formText(form, 'description') },
        })
      }
      done={(cents) => onDone(t('done.refunded', { amount: money(format, cents, currency) }))}
    >
      <label className="block text-sm">
        {t('reason')}
        <input
          name="reason"
          required
          maxLength={256}
          className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      <label className="block text-sm">
        {t('description')}
        <textarea
          name="description"
          maxLength={1024}
          className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
    </AmountForm>
  );
}

function CaptureAction({ transactionId, authorized, currency, before, onDone }: Capturable & Done) {
  const t = useTranslations('operations.detail.operationActions');
  const format = useFormatter();
  return (
    <AmountForm
      open={t('capture')}
      primary
      text={t('captureText', { amount: money(format, authorized, currency), before })}
      amountLabel={t('captureAmount')}
      max={authorized}
      currency={currency}
      submit={t('doCapture')}
      act={(cents) => consoleClient.console.capture.mutate({ transactionId, ...(cents === authorized ? {} : { amount: cents }) })}
      done={(cents) => onDone(t('done.captured', { amount: money(format, cents, currency) }))}
    />
  );
}

type AmountFormProps = {
  /** The button that opens the form. */
  open: string;
  primary?: boolean;
  text: string;
  amountLabel: string;
  /** The most the amount may be, in cents. */
  max: string;
  currency: string;
  submit: string;
  act: (cents: string, form: FormData) => Promise<unknown>;
  done: (cents: string) => void;
  children?: ReactNode;
};

/** A money action behind a button: an amount up to `max` (filled with it), the action's own fields, send or cancel. */
function AmountForm({
  open: openLabel,
  primary = false,
  text,
  amountLabel,
  max,
  currency,
  submit,
  act,
  done,
  children,
}: AmountFormProps) {
  const t = useTranslations('operations.detail.operationActions');
  const format = useFormatter();
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useConsoleAction();
  if (!open) {
    return (
      <button type="button" disabled={busy} onClick={() => setOpen(true)} className={primary ? PRIMARY_BUTTON : SECONDARY_BUTTON}>
        {openLabel}
      </button>
    );
  }
  return (
    <form
      className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const cents = centsOfInput(formText(form, 'amount'));
        run(
          () =>
            cents === null || BigInt(cents) > BigInt(max)
              ? Promise.reject(new FormProblem(t('badAmount', { max: money(format, max, currency) })))
              : act(cents, form),
          () => {
            setOpen(false);
            done(cents!);
          },
        );
      }}
    >
      <p className="text-sm">{text}</p>
      <label className="block text-sm">
        {amountLabel}
        <input
          name="amount"
          required
          inputMode="decimal"
          defaultValue={inputOfCents(max)}
          className="mt-1 block w-40 rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      {children}
      <ActionError message={error} />
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {submit}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
