'use client';

import { useTranslations } from 'next-intl';

/** The error state of every console page: what happened, and a way to try again. */
export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations('error');
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{t('title')}</p>
      <p className="text-sm">{t('body')}</p>
      <button type="button" onClick={reset} className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm">
        {t('retry')}
      </button>
    </div>
  );
}
