'use client';

import { useTranslations } from 'next-intl';
import { type Fields } from './batch-text';

const INPUT =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300';

/** The request's additional_fields, with the API's length limits. */
const FIELDS = [
  { key: 'canal', max: 64, span: '' },
  { key: 'reason', max: 256, span: 'sm:col-span-3' },
  { key: 'description', max: 1024, span: 'sm:col-span-4' },
] as const;

/** Canal, reason and description of a refund (the description on several lines). */
export function ReasonFields({ value, onChange }: { value: Fields; onChange: (next: Fields) => void }) {
  const t = useTranslations('refunds.new.batch');
  const labels: Record<keyof Fields, string> = { canal: t('canal'), reason: t('reason'), description: t('description') };
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-4">
      {FIELDS.map(({ key, max, span }) => {
        const props = {
          className: INPUT,
          maxLength: max,
          value: value[key],
          onChange: (event: { target: { value: string } }) => onChange({ ...value, [key]: event.target.value }),
        };
        return (
          <label key={key} className={`text-sm ${span}`}>
            {labels[key]}
            {key === 'description' ? <textarea rows={2} {...props} /> : <input {...props} />}
          </label>
        );
      })}
    </div>
  );
}
