'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleClient, errorMessage } from '../../../console-ui/trpc-client';
import { formText } from '../../../console-ui/form-text';
import { ActionError, Confirm } from '../../../console-ui/form-kit';
import { DANGER_OUTLINE_BUTTON } from '../../../console-ui/buttons';
import { useConsoleLang } from '../../../console-ui/lang-context';

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
    refund: 'Solicitar reembolso total',
    refundText: (amount: string) => `Reembolso total de ${amount}. El pagador recibe el monto completo.`,
    reason: 'Motivo',
    description: 'Descripción',
    register: 'Registrar reembolso',
    cancel: 'Cancelar',
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
    refund: 'Request a total refund',
    refundText: (amount: string) => `Total refund of ${amount}. The payer gets the whole amount back.`,
    reason: 'Reason',
    description: 'Description',
    register: 'File refund',
    cancel: 'Cancel',
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

export function RefundAction({ transactionId, amount }: { transactionId: string; amount: string }) {
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
        setBusy(true);
        consoleClient.console.refund
          .mutate({
            transactionId,
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
      <p className="text-sm">{text.refundText(amount)}</p>
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
