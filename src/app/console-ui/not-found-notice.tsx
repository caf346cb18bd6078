import { Notice } from './notice';

export type NotFoundText = { title: string; body: string; back: string };

/** A console not-found page: what is missing, in the user's language, and the list to go back to. */
export function NotFoundNotice({ text, href }: { text: NotFoundText; href: string }) {
  return <Notice title={text.title} body={text.body} href={href} link={text.back} />;
}
