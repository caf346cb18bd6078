import { getTranslations } from 'next-intl/server';

/** The loading state of every console page. */
export default async function ConsoleLoading() {
  const t = await getTranslations('layout');
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-3">
      <div className="h-8 w-48 rounded bg-slate-200" />
      <div className="h-24 rounded bg-slate-200" />
      <div className="h-64 rounded bg-slate-200" />
      <span className="sr-only">{t('loading')}</span>
    </div>
  );
}
