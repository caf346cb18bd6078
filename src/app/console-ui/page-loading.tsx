import { getTranslations } from 'next-intl/server';

/**
 * The loading state of a console page. Each page without an id in its path has a loading.tsx
 * that shows it; a detail page has none above it, so its lookup ends before the first byte and an
 * unknown id answers a real 404 (docs/DECISIONS.md, "Console messages (issue 29)").
 */
export async function PageLoading() {
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
