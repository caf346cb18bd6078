import { getRequestConfig } from 'next-intl/server';
import { consoleLang } from '../app/console-ui/lang-server';
import { consoleMessages } from '../app/console-ui/messages';

// next-intl without i18n routing: the console's language is the visitor's choice (a cookie,
// lang-server.ts), never a part of the URL. Server components read it through getTranslations.
export default getRequestConfig(async () => {
  const locale = await consoleLang();
  return { locale, messages: consoleMessages(locale), timeZone: 'UTC' };
});
