import { cookies } from 'next/headers';
import { LANG_COOKIE, parseLang, type ConsoleLang } from './i18n';

/** The signed-in visitor's console language, on a server-rendered page. */
export async function consoleLang(): Promise<ConsoleLang> {
  return parseLang((await cookies()).get(LANG_COOKIE)?.value);
}
