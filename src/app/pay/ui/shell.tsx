import type { ReactNode } from 'react';
import { DocumentLang } from './document-lang';
import { MESSAGES, type PayerLang } from './messages';

/** The frame of every payer page: one phone-width column and the language switch. */
export function Shell({ lang, token, children }: { lang: PayerLang; token: string; children: ReactNode }) {
  const other = lang === 'es' ? 'en' : 'es';
  return (
    <main lang={lang} className="mx-auto flex min-h-screen max-w-md flex-col gap-4 px-4 py-6 sm:py-10">
      <DocumentLang lang={lang} />
      <div className="flex justify-end">
        <a className="text-sm text-blue-800 underline" href={`/pay/${encodeURIComponent(token)}?lang=${other}`} hrefLang={other}>
          {MESSAGES[lang].language}
        </a>
      </div>
      {children}
    </main>
  );
}
