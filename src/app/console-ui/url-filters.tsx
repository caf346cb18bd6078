'use client';

import { useTranslations } from 'next-intl';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';
import { formText } from './form-text';

export type FilterField =
  | { name: string; label: string; kind: 'text' | 'date'; placeholder?: string; wide?: boolean; inputMode?: 'decimal' }
  | { name: string; label: string; kind: 'select'; options: { value: string; label: string }[] };

/**
 * A filter form whose values live in the URL; applying it is a client navigation, never a full reload.
 * `keep`: parameters of another form on the same page that applying or clearing this one leaves as they are.
 */
export function UrlFilters({ label, fields, keep = [] }: { label: string; fields: FilterField[]; keep?: string[] }) {
  const t = useTranslations('ui.urlFilters');
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();
  // Until hydration the form submits natively (a plain GET: it still works, with a reload).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const kept = () => {
    const next = new URLSearchParams();
    for (const name of keep) {
      const value = params.get(name);
      if (value) next.set(name, value);
    }
    return next;
  };
  const go = (query: URLSearchParams) =>
    startTransition(() => router.push(query.toString() ? `${pathname}?${query.toString()}` : pathname));
  const input = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm';
  return (
    <form
      role="search"
      aria-label={label}
      data-hydrated={hydrated}
      className="grid grid-cols-2 gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-4 lg:grid-cols-8"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const next = kept();
        for (const field of fields) {
          const value = formText(form, field.name).trim();
          if (value) next.set(field.name, value);
        }
        go(next);
      }}
    >
      {[...kept()].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map((field) => (
        <label key={field.name} className={`text-sm ${field.kind !== 'select' && field.wide ? 'col-span-2' : ''}`}>
          {field.label}
          {field.kind === 'select' ? (
            <select name={field.name} defaultValue={params.get(field.name) ?? ''} className={input}>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              name={field.name}
              type={field.kind}
              defaultValue={params.get(field.name) ?? ''}
              placeholder={field.placeholder}
              inputMode={field.inputMode}
              className={input}
            />
          )}
        </label>
      ))}
      <div className="col-span-2 flex items-end gap-2 sm:col-span-4 lg:col-span-8">
        <button
          type="submit"
          className="rounded-md bg-slate-900 px-4 py-1.5 text-sm font-semibold text-white disabled:opacity-60"
          disabled={pending}
        >
          {t('apply')}
        </button>
        <button type="button" className="rounded-md border border-slate-300 px-4 py-1.5 text-sm" onClick={() => go(kept())}>
          {t('clear')}
        </button>
        {pending ? (
          <span className="text-sm text-slate-600" role="status">
            {t('loading')}
          </span>
        ) : null}
      </div>
    </form>
  );
}
