import type { ConsoleLang } from './i18n';
import { consoleLang } from './lang-server';
import { Notice } from './notice';

export type NotFoundText = Record<ConsoleLang, { title: string; body: string; back: string }>;

/** A console not-found page: what is missing, in the user's language, and the list to go back to. */
export async function NotFoundNotice({ text, href }: { text: NotFoundText; href: string }) {
  const { title, body, back } = text[await consoleLang()];
  return <Notice title={title} body={body} href={href} link={back} />;
}
