'use client';

import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { ConsoleLang } from './i18n';

const LangContext = createContext<ConsoleLang>('es');

/** Gives client components the console language, and sets <html lang> to it. */
export function ConsoleLangProvider({ lang, children }: { lang: ConsoleLang; children: ReactNode }) {
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return <LangContext.Provider value={lang}>{children}</LangContext.Provider>;
}

export function useConsoleLang(): ConsoleLang {
  return useContext(LangContext);
}
