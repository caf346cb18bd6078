import type es from '../messages/es.json';
import type { ConsoleLang } from '../app/console-ui/i18n';

// Message keys are checked by TypeScript against the Spanish catalogue (the reference one);
// catalogue.test.ts checks that the English one has the same keys.
declare module 'next-intl' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface AppConfig {
    Locale: ConsoleLang;
    Messages: typeof es;
  }
}
