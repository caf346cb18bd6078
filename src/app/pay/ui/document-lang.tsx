'use client';

import { useEffect } from 'react';

/** Sets <html lang> for pages whose language the visitor chose (the root layout says es). */
export function DocumentLang({ lang }: { lang: string }) {
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return null;
}
