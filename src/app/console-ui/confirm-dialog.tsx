'use client';

import { PRIMARY_BUTTON, SECONDARY_BUTTON } from './buttons';

/** Asks before an action that moves money: what will happen, then yes (focused) or back. */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  backLabel,
  busy,
  onConfirm,
  onBack,
}: {
  title: string;
  body: string;
  confirmLabel: string;
  backLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) {
  return (
    <div
      role="alertdialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3"
    >
      <p id="confirm-title" className="font-semibold">
        {title}
      </p>
      <p id="confirm-text" className="text-sm">
        {body}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" autoFocus disabled={busy} onClick={onConfirm} className={PRIMARY_BUTTON}>
          {confirmLabel}
        </button>
        <button type="button" disabled={busy} onClick={onBack} className={SECONDARY_BUTTON}>
          {backLabel}
        </button>
      </div>
    </div>
  );
}
