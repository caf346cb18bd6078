import { NextIntlClientProvider } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import { ConsoleLangProvider } from '../console-ui/lang-context';
import { consoleIntlConfig } from '../console-ui/format';
import { businessZone } from '../console-ui/zone-server';
import { consoleLang } from '../console-ui/lang-server';
import { LangSwitch } from '../console-ui/lang-switch';
import { consoleMessages } from '../console-ui/messages';
import { LoginForm } from './login-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('login.page'))('meta') };
}

type Props = { searchParams: Promise<{ callbackUrl?: string }> };

/** Only paths of this site are followed after sign-in (no open redirect). */
function safeCallback(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/** The sign-in page, in the language the visitor chose (the console's cookie), which it can switch. */
export default async function LoginPage({ searchParams }: Props) {
  const [{ callbackUrl }, lang] = await Promise.all([searchParams, consoleLang()]);
  const t = await getTranslations('login.page');
  const messages = consoleMessages(lang);
  return (
    // Only the texts its client components need: the form's and the language switch's.
    <NextIntlClientProvider {...consoleIntlConfig(lang, businessZone())} messages={{ login: messages.login }}>
      <ConsoleLangProvider lang={lang}>
        <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4">
          <div className="mb-6 flex items-center gap-3">
            <h1 className="text-2xl font-semibold">{t('title')}</h1>
            <span className="ml-auto">
              <LangSwitch />
            </span>
          </div>
          <LoginForm callbackUrl={safeCallback(callbackUrl)} />
        </main>
      </ConsoleLangProvider>
    </NextIntlClientProvider>
  );
}
