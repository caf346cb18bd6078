import { NextIntlClientProvider } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { requireConsoleSession } from '@/server/api/console-caller';
import { ConsoleLangProvider } from '../console-ui/lang-context';
import { consoleMessages } from '../console-ui/messages';
import { consoleIntlConfig } from '../console-ui/format';
import { consoleLang } from '../console-ui/lang-server';
import { ConsoleNav } from '../console-ui/console-nav';
import { LangSwitch } from '../console-ui/lang-switch';
import { SignOutButton } from '../console-ui/sign-out-button';
import { BusinessZoneProvider } from '../console-ui/zone-context';
import { businessZone } from '../console-ui/zone-server';
import { can } from '@/server/modules/access/policy';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const [session, lang] = await Promise.all([requireConsoleSession(), consoleLang()]);
  const t = await getTranslations('layout');
  const platformRole = can(session.role, 'platform:read');
  const links = [
    { href: '/', label: t('overview') },
    { href: '/operations', label: t('operations') },
    { href: '/refunds', label: t('refunds') },
    { href: '/customers', label: t('customers') },
    { href: '/developers', label: t('developers') },
    { href: '/routing', label: t('routing') },
    { href: '/processors', label: t('processors') },
    platformRole ? { href: '/platform', label: t('platform') } : { href: '/settings', label: t('settings') },
  ];
  return (
    // The client components' messages (the whole catalogue of the chosen language) and formats, set once here.
    <NextIntlClientProvider {...consoleIntlConfig(lang, businessZone())} messages={consoleMessages(lang)}>
      <ConsoleLangProvider lang={lang}>
        <BusinessZoneProvider zone={businessZone()}>
          <div className="min-h-screen">
            <a
              href="#main"
              className="sr-only rounded bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
            >
              {t('skip')}
            </a>
            <header className="border-b border-slate-200 bg-white">
              <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
                <Link href="/" className="font-semibold">
                  {t('home')}
                </Link>
                <ConsoleNav links={links} label={t('sections')} menu={t('menu')} />
                <div className="ml-auto flex flex-wrap items-center gap-2 text-sm text-slate-600">
                  <span data-testid="signed-in-as" className="break-all">
                    {session.email} · {t(`roles.${session.role}`)}
                  </span>
                  <LangSwitch />
                  <SignOutButton />
                </div>
              </div>
            </header>
            <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none">
              {children}
            </main>
          </div>
        </BusinessZoneProvider>
      </ConsoleLangProvider>
    </NextIntlClientProvider>
  );
}
