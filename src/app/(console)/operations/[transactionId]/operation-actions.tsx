'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleClient } from '../../../console-ui/trpc-client';
import { useErrorMessage } from '../../../console-ui/use-console-action';
import { formText } from '../../../console-ui/form-text';
import { ActionError, Confirm } from '../../../console-ui/form-kit';
import { DANGER_OUTLINE_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { centsOfInput, inputOfCents } from '../../../console-ui/amount-input';
import { money } from '../../../console-ui/format';
import { useConsoleAction } from '../../../console-ui/use-console-action';

export function CancelAction({ transactionId, to }: { transactionId: string; to: 'CANCELADO' | 'EXTORNADO' }) {
  const errorText = useErrorMessage();
  const t = useTranslations('operations.detail.operationActions');
  const [label, confirm, consequence] = [t(`states.${to}.label`), t(`states.${to}.confirm`), t(`states.${to}.consequence`)];
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)} className={DANGER_OUTLINE_BUTTON}>
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
        onYes={() => {
          setBusy(true);
          consoleClient.console.cancel.mutate({ transactionId }).then(
            () => {
              setConfirming(false);
              setBusy(false);
              router.refresh();
            },
            (failure: unknown) => {
              setBusy(false);
              setError(errorText(failure));
            },
          );
        }}
        onNo={() => setConfirming(false)}
      />
      <ActionError message={error} />
    </div>
  );
}

/** What a refund may take: `refundable` cents of `currency`; `whole` when nothing was refunded yet (TOTAL). */
type Refundable = { transactionId: string; refundable: string; currency: string; whole: boolean };

export function RefundAction({ transactionId, refundable, currency, whole }: Refundable) {
  const errorText = useErrorMessage();
  const t = useTranslations('operations.detail.operationActions');
  const format = useFormatter();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
      >
        {t('refund')}
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
        if (cents === null || BigInt(cents) > BigInt(refundable))
          return setError(t('badAmount', { max: money(format, refundable, currency) }));
        setBusy(true);
        consoleClient.console.refund
          .mutate({
            transactionId,
            // All of it, with nothing refunded before, is a TOTAL refund; anything else a PARTIAL one.
            ...(whole && cents === refundable ? {} : { amount: cents }),
            additional_fields: {
              canal: 'console',
              reason: formText(form, 'reason'),
              description: formText(form, 'description'),
            },
          })
          .then(
            () => {
              setOpen(false);
              setBusy(false);
              router.refresh();
            },
            (failure: unknown) => {
              setBusy(false);
              setError(errorText(failure));
            },
          );
      }}
    >
      <p className="text-sm">{t('refundText', { amount: money(format, refundable, currency) })}</p>
      <AmountField label={t('refundAmount')} cents={refundable} />
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
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-60"
        >
          {t('register')}
        </button>
        <button
          type="button"
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
          onClick={() => setOpen(false)}
        >
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/** What a capture may take: `authorized` cents of `currency`, before `before` (written in the page's language). */
type Capturable = { transactionId: string; authorized: string; currency: string; before: string };

export function CaptureAction({ transactionId, authorized, currency, before }: Capturable) {
  const t = useTranslations('operations.detail.operationActions');
  const format = useFormatter();
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useConsoleAction();
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className={PRIMARY_BUTTON}>
        {t('capture')}
      </button>
    );
  }
  return (
    <form
      className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const cents = centsOfInput(formText(new FormData(event.currentTarget), 'amount'));
        if (cents === null || BigInt(cents) > BigInt(authorized))
          return setProblem(t('badAmount', { max: money(format, authorized, currency) }));
        setProblem(null);
        run(
          () => consoleClient.console.capture.mutate({ transactionId, ...(cents === authorized ? {} : { amount: cents }) }),
          () => setOpen(false),
        );
      }}
    >
      <p className="text-sm">{t('captureText', { amount: money(format, authorized, currency), before })}</p>
      <AmountField label={t('captureAmount')} cents={authorized} />
      <ActionError message={problem ?? error} />
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {t('doCapture')}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/** An amount field, in soles with decimals, filled with `cents`. */
function AmountField({ label, cents }: { label: string; cents: string }) {
  return (
    <label className="block text-sm">
      {label}
      <input
        name="amount"
        required
        inputMode="decimal"
        defaultValue={inputOfCents(cents)}
        className="mt-1 block w-40 rounded-md border border-slate-300 px-2 py-1.5"
      />
    </label>
  );
}
