'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { LANG_COOKIE, type ConsoleLang } from './i18n';
import { useConsoleLang } from './lang-context';

const NAMES: Record<ConsoleLang, string> = { es: 'Español', en: 'English' };

/** Switches the console's language: a cookie for a year, then the page renders again on the server. */
export function LangSwitch() {
  const lang = useConsoleLang();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const other: ConsoleLang = lang === 'es' ? 'en' : 'es';
  return (
    <button
      type="button"
      lang={other}
      disabled={pending}
      data-testid="lang-switch"
      className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-60"
      onClick={() => {
        document.cookie = `${LANG_COOKIE}=${other}; path=/; max-age=31536000; samesite=lax`;
        startTransition(() => router.refresh());
      }}
    >
      {NAMES[other]}
    </button>
  );
}
