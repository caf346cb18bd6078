import { getRequestConfig } from 'next-intl/server';
import { consoleLang } from '../app/console-ui/lang-server';
import { consoleMessages } from '../app/console-ui/messages';
import { consoleIntlConfig } from '../app/console-ui/format';
import { businessZone } from '../app/console-ui/zone-server';

// next-intl without i18n routing: the console's language is the visitor's choice (a cookie,
// lang-server.ts), never a part of the URL. Server components read it through getTranslations, and
// format dates and money with getFormatter in the business time zone (format.tsx).
export default getRequestConfig(async () => {
  const lang = await consoleLang();
  return { ...consoleIntlConfig(lang, businessZone()), messages: consoleMessages(lang) };
});
