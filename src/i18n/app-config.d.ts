import type es from '../messages/es.json';
import type { IntlLocale } from '../app/console-ui/i18n';
import type { CONSOLE_FORMATS } from '../app/console-ui/format';

// Message keys are checked by TypeScript against the Spanish catalogue (the reference one);
// catalogue.test.ts checks that the English one has the same keys. The locale is the Intl locale
// of the console language (day-first dates in both), the formats the console's named ones.
declare module 'next-intl' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface AppConfig {
    Locale: IntlLocale;
    Messages: typeof es;
    Formats: typeof CONSOLE_FORMATS;
  }
}
