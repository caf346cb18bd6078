'use client';

import { useId, type ReactNode } from 'react';
import { formText } from './form-text';
import { ActionError, Field, INPUT, Select } from './form-kit';
import { PRIMARY_BUTTON } from './buttons';
import { useConsoleAction, type KnownErrors } from './use-console-action';

export type SimpleField = {
  name: string;
  label: string;
  type?: 'text' | 'email';
  required?: boolean;
  maxLength?: number;
  /** An HTML pattern, checked again by the procedure. */
  pattern?: string;
  hint?: string;
  options?: { value: string; label: string }[];
  defaultValue?: string;
};

type Props<T> = {
  id: string;
  title: string;
  fields: SimpleField[];
  submitLabel: string;
  known?: KnownErrors;
  call: (values: Record<string, string>) => Promise<T>;
  done?: (value: T, form: HTMLFormElement) => void;
  children?: ReactNode;
};

/** A titled form of a few text fields and selects that calls one procedure, then renders the page again. */
export function SimpleForm<T>({ id, title, fields, submitLabel, known, call, done, children }: Props<T>) {
  const action = useConsoleAction(known);
  const fieldId = useId();
  return (
    <form
      aria-labelledby={id}
      className="space-y-3 rounded-lg border border-slate-200 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        const element = event.currentTarget;
        const form = new FormData(element);
        const values = Object.fromEntries(fields.map((field) => [field.name, formText(form, field.name).trim()]));
        action.run(
          () => call(values),
          (value) => done?.(value, element),
        );
      }}
    >
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      <fieldset disabled={action.busy} className="grid gap-3 sm:grid-cols-3">
        {fields.map((field) => {
          const id = `${fieldId}-${field.name}`;
          return (
            <Field key={field.name} id={id} label={field.label} hint={field.hint}>
              {field.options ? (
                <Select id={id} name={field.name} defaultValue={field.defaultValue ?? ''} options={field.options} />
              ) : (
                <input
                  id={id}
                  name={field.name}
                  type={field.type ?? 'text'}
                  required={field.required}
                  maxLength={field.maxLength}
                  pattern={field.pattern}
                  defaultValue={field.defaultValue}
                  autoComplete="off"
                  aria-describedby={field.hint ? `${id}-hint` : undefined}
                  className={INPUT}
                />
              )}
            </Field>
          );
        })}
      </fieldset>
      {children}
      <ActionError message={action.error} />
      <button type="submit" disabled={action.busy} className={PRIMARY_BUTTON}>
        {submitLabel}
      </button>
    </form>
  );
}
