import { consoleLang } from '../console-ui/lang-server';

/** The loading state of every console page. */
export default async function ConsoleLoading() {
  const lang = await consoleLang();
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-3">
      <div className="h-8 w-48 rounded bg-slate-200" />
      <div className="h-24 rounded bg-slate-200" />
      <div className="h-64 rounded bg-slate-200" />
      <span className="sr-only">{lang === 'en' ? 'Loading…' : 'Cargando…'}</span>
    </div>
  );
}
