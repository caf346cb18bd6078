'use client';

import type { ReactNode } from 'react';
import { ActionError, INPUT } from './form-kit';
import { useConsoleAction } from './use-console-action';

type Props = {
  id: string;
  title: string;
  intro?: string;
  canEdit: boolean;
  saveLabel: string;
  /** The procedure the form's values go to; the page renders again after it. */
  submit: (form: FormData) => Promise<unknown>;
  /** The fields, disabled while saving or for a role that may only look. */
  children: (disabled: boolean) => ReactNode;
};

/** One of a merchant's settings, titled, with its fields and a save button for roles that may change it. */
export function SettingSection({ id, title, intro, canEdit, saveLabel, submit, children }: Props) {
  const { busy, error, run } = useConsoleAction();
  const disabled = !canEdit || busy;
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {intro ? <p className="text-sm text-slate-600">{intro}</p> : null}
      <form
        className="grid max-w-xl grid-cols-1 gap-2 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          run(() => submit(form));
        }}
      >
        {children(disabled)}
        <ActionError message={error} />
        {canEdit ? (
          <button disabled={disabled} className="w-fit rounded-md bg-slate-800 px-3 py-1.5 text-sm text-white">
            {saveLabel}
          </button>
        ) : null}
      </form>
    </section>
  );
}

/** A setting's mode, one of `modes`, each with its words. */
export function ModeSelect<M extends string>(props: {
  label: string;
  modes: readonly M[];
  words: Record<M, string>;
  value: M;
  disabled: boolean;
}) {
  return (
    <label className="block text-sm">
      {props.label}
      <select name="mode" defaultValue={props.value} className={INPUT} disabled={props.disabled}>
        {props.modes.map((mode) => (
          <option key={mode} value={mode}>
            {props.words[mode]}
          </option>
        ))}
      </select>
    </label>
  );
}
