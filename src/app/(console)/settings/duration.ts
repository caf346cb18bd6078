import { intlLocale, type ConsoleLang } from '../../console-ui/i18n';

/** An expiry for people: "24 h", "15 min", or seconds when it is not whole minutes (set by an operator). */
export function duration(seconds: number, lang: ConsoleLang): string {
  const number = (value: number) => value.toLocaleString(intlLocale(lang));
  if (seconds >= 3600 && seconds % 3600 === 0) return `${number(seconds / 3600)} h`;
  if (seconds % 60 === 0) return `${number(seconds / 60)} min`;
  return `${number(seconds)} s`;
}
