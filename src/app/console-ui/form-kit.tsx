import type { ReactNode } from 'react';
import { DANGER_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from './buttons';

// The console's form pieces: one look for inputs and buttons, errors announced, sections titled.
export const INPUT =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300 disabled:bg-slate-50 disabled:text-slate-700';

export function ActionError({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  ) : null;
}

/** A labelled control with an optional hint (the control names `${id}-hint` in aria-describedby). */
export function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="text-sm">
      <label htmlFor={id} className="block">
        {label}
      </label>
      {children}
      {hint ? (
        <span id={`${id}-hint`} className="mt-1 block text-xs text-slate-600">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

type SelectProps = { id: string; name: string; defaultValue: string; options: { value: string; label: string }[] };

export function Select({ id, name, defaultValue, options }: SelectProps) {
  return (
    <select id={id} name={name} defaultValue={defaultValue} className={INPUT}>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

type SaveRowProps = { show: boolean; disabled: boolean; error: string | null; label: string; saved: string | null };

/** The end of a settings form: the refusal if any, then (for who may edit) save and what was saved. */
export function SaveRow({ show, disabled, error, label, saved }: SaveRowProps) {
  return (
    <>
      <ActionError message={error} />
      {show ? (
        <div className="flex items-center gap-3">
          <button type="submit" disabled={disabled} className={PRIMARY_BUTTON}>
            {label}
          </button>
          <span role="status" className="text-sm text-emerald-800">
            {saved}
          </span>
        </div>
      ) : null}
    </>
  );
}

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

type ConfirmProps = {
  id: string;
  title: string;
  body: string;
  yes: string;
  no: string;
  busy: boolean;
  danger?: boolean;
  onYes: () => void;
  onNo: () => void;
};

/** The confirmation before an action: what will happen, then yes (focused) or no. */
export function Confirm({ id, title, body, yes, no, busy, danger = true, onYes, onNo }: ConfirmProps) {
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      className={`space-y-2 rounded-lg border p-3 text-sm ${danger ? 'border-red-200 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50'}`}
    >
      <p id={`${id}-title`} className="font-semibold">
        {title}
      </p>
      <p id={`${id}-body`}>{body}</p>
      <div className="flex flex-wrap gap-2">
        <button type="button" autoFocus disabled={busy} className={danger ? DANGER_BUTTON : PRIMARY_BUTTON} onClick={onYes}>
          {yes}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={onNo}>
          {no}
        </button>
      </div>
    </div>
  );
}
