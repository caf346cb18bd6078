import Link from 'next/link';
import type { ReactNode } from 'react';
import { requireConsoleSession } from '@/server/api/console-caller';
import type { Role } from '@/server/modules/access/console-session';
import { ConsoleLangProvider } from '../console-ui/lang-context';
import { consoleLang } from '../console-ui/lang-server';
import { LangSwitch } from '../console-ui/lang-switch';
import { SignOutButton } from '../console-ui/sign-out-button';
import { BusinessZoneProvider } from '../console-ui/zone-context';
import { businessZone } from '../console-ui/zone-server';
import { can } from '@/server/modules/access/policy';

export const dynamic = 'force-dynamic';

const TEXT = {
  es: {
    home: 'Consola de pagos',
    sections: 'Secciones',
    overview: 'Resumen',
    operations: 'Operaciones',
    refunds: 'Reembolsos',
    developers: 'Desarrolladores',
    routing: 'Enrutamiento',
    processors: 'Procesadores',
    settings: 'Configuración',
    platform: 'Plataforma',
    skip: 'Saltar al contenido',
    roles: {
      PLATFORM_ADMIN: 'Administrador de plataforma',
      SUPPORT: 'Soporte (solo lectura)',
      MERCHANT_ADMIN: 'Administrador del comercio',
      MERCHANT_VIEWER: 'Consulta (solo lectura)',
    },
  },
  en: {
    home: 'Payments console',
    sections: 'Sections',
    overview: 'Overview',
    operations: 'Operations',
    refunds: 'Refunds',
    developers: 'Developers',
    routing: 'Routing',
    processors: 'Processors',
    settings: 'Settings',
    platform: 'Platform',
    skip: 'Skip to content',
    roles: {
      PLATFORM_ADMIN: 'Platform administrator',
      SUPPORT: 'Support (read-only)',
      MERCHANT_ADMIN: 'Merchant administrator',
      MERCHANT_VIEWER: 'Viewer (read-only)',
    },
  },
} satisfies Record<string, { roles: Record<Role, string> } & Record<string, unknown>>;

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const [session, lang] = await Promise.all([requireConsoleSession(), consoleLang()]);
  const text = TEXT[lang];
  const platformRole = can(session.role, 'platform:read');
  const links = [
    { href: '/', label: text.overview },
    { href: '/operations', label: text.operations },
    { href: '/refunds', label: text.refunds },
    { href: '/developers', label: text.developers },
    { href: '/routing', label: text.routing },
    { href: '/processors', label: text.processors },
    platformRole ? { href: '/platform', label: text.platform } : { href: '/settings', label: text.settings },
  ];
  return (
    <ConsoleLangProvider lang={lang}>
      <BusinessZoneProvider zone={businessZone()}>
        <div className="min-h-screen">
          <a
            href="#main"
            className="sr-only rounded bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
          >
            {text.skip}
          </a>
          <header className="border-b border-slate-200 bg-white">
            <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
              <Link href="/" className="font-semibold">
                {text.home}
              </Link>
              <nav
                aria-label={text.sections}
                className="order-last flex w-full gap-1 overflow-x-auto text-sm md:order-none md:w-auto"
              >
                {links.map((link) => (
                  <Link key={link.href} href={link.href} className="rounded px-2 py-1 whitespace-nowrap hover:bg-slate-100">
                    {link.label}
                  </Link>
                ))}
              </nav>
              <div className="ml-auto flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <span data-testid="signed-in-as" className="break-all">
                  {session.email} · {text.roles[session.role]}
                </span>
                <LangSwitch />
                <SignOutButton />
              </div>
            </div>
          </header>
          <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
            {children}
          </main>
        </div>
      </BusinessZoneProvider>
    </ConsoleLangProvider>
  );
}
