'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleClient, errorMessage } from '../../../console-ui/trpc-client';
import { formText } from '../../../console-ui/form-text';
import { ActionError, Confirm } from '../../../console-ui/form-kit';
import { DANGER_OUTLINE_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../console-ui/buttons';
import { centsOfInput, inputOfCents } from '../../../console-ui/amount-input';
import { money } from '../../../console-ui/format';
import { useConsoleLang } from '../../../console-ui/lang-context';
import { useConsoleAction } from '../../../console-ui/use-console-action';

const TEXT = {
  es: {
    CANCELADO: {
      label: 'Cancelar operación',
      confirm: 'Sí, cancelar',
      consequence: 'El pago pendiente se cancelará: el enlace, código o QR del pagador dejará de funcionar. No se cobrará nada.',
    },
    EXTORNADO: {
      label: 'Extornar operación',
      confirm: 'Sí, extornar',
      consequence: 'La autorización se extornará: los fondos retenidos vuelven al pagador y la operación no se liquidará.',
    },
    ask: (action: string) => `¿${action}?`,
    no: 'No',
    refund: 'Solicitar reembolso',
    refundText: (amount: string) => `Se puede reembolsar hasta ${amount}: todo o una parte.`,
    refundAmount: 'Monto a reembolsar',
    reason: 'Motivo',
    description: 'Descripción',
    register: 'Registrar reembolso',
    cancel: 'Cancelar',
    capture: 'Capturar pago',
    captureText: (amount: string, before: string) =>
      `Autorizado por ${amount}, sin capturar: captura todo o una parte antes del ${before} (lo que no captures se libera al pagador); si no, la autorización se anula.`,
    captureAmount: 'Monto a capturar',
    doCapture: 'Capturar',
    badAmount: (max: string) => `Escribe un monto mayor que cero y de hasta ${max}, con a lo más dos decimales.`,
  },
  en: {
    CANCELADO: {
      label: 'Cancel operation',
      confirm: 'Yes, cancel',
      consequence: "The pending payment will be cancelled: the payer's link, code or QR stops working. Nothing is charged.",
    },
    EXTORNADO: {
      label: 'Reverse operation',
      confirm: 'Yes, reverse',
      consequence: 'The authorization will be reversed: the held funds go back to the payer and the operation is not settled.',
    },
    ask: (action: string) => `${action}?`,
    no: 'No',
    refund: 'Request a refund',
    refundText: (amount: string) => `Up to ${amount} can be refunded: all of it or a part.`,
    refundAmount: 'Amount to refund',
    reason: 'Reason',
    description: 'Description',
    register: 'File refund',
    cancel: 'Cancel',
    capture: 'Capture payment',
    captureText: (amount: string, before: string) =>
      `Authorized for ${amount}, not captured: capture all of it or a part before ${before} (what you do not capture goes back to the payer); otherwise the authorization is voided.`,
    captureAmount: 'Amount to capture',
    doCapture: 'Capture',
    badAmount: (max: string) => `Write an amount above zero and up to ${max}, with at most two decimals.`,
  },
};

export function CancelAction({ transactionId, to }: { transactionId: string; to: 'CANCELADO' | 'EXTORNADO' }) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const { label, confirm, consequence } = text[to];
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
        title={text.ask(label)}
        body={consequence}
        yes={confirm}
        no={text.no}
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
              setError(errorMessage(failure, lang));
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
  const lang = useConsoleLang();
  const text = TEXT[lang];
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
        {text.refund}
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
        if (cents === null || BigInt(cents) > BigInt(refundable)) return setError(text.badAmount(money(refundable, currency)));
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
              setError(errorMessage(failure, lang));
            },
          );
      }}
    >
      <p className="text-sm">{text.refundText(money(refundable, currency))}</p>
      <AmountField label={text.refundAmount} cents={refundable} />
      <label className="block text-sm">
        {text.reason}
        <input
          name="reason"
          required
          maxLength={256}
          className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      <label className="block text-sm">
        {text.description}
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
          {text.register}
        </button>
        <button
          type="button"
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm"
          onClick={() => setOpen(false)}
        >
          {text.cancel}
        </button>
      </div>
    </form>
  );
}

/** What a capture may take: `authorized` cents of `currency`, before `before` (written in the page's language). */
type Capturable = { transactionId: string; authorized: string; currency: string; before: string };

export function CaptureAction({ transactionId, authorized, currency, before }: Capturable) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useConsoleAction();
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className={PRIMARY_BUTTON}>
        {text.capture}
      </button>
    );
  }
  return (
    <form
      className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const cents = centsOfInput(formText(new FormData(event.currentTarget), 'amount'));
        if (cents === null || BigInt(cents) > BigInt(authorized)) return setProblem(text.badAmount(money(authorized, currency)));
        setProblem(null);
        run(
          () => consoleClient.console.capture.mutate({ transactionId, ...(cents === authorized ? {} : { amount: cents }) }),
          () => setOpen(false),
        );
      }}
    >
      <p className="text-sm">{text.captureText(money(authorized, currency), before)}</p>
      <AmountField label={text.captureAmount} cents={authorized} />
      <ActionError message={problem ?? error} />
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {text.doCapture}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
          {text.cancel}
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
