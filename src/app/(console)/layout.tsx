import Link from 'next/link';
import type { ReactNode } from 'react';
import { requireConsoleSession } from '@/server/console-session-server';
import { SignOutButton } from '../console-ui/sign-out-button';

export const dynamic = 'force-dynamic';

const ROLE_NAMES: Record<string, string> = {
  PLATFORM_ADMIN: 'Administrador de plataforma',
  SUPPORT: 'Soporte (solo lectura)',
  MERCHANT_ADMIN: 'Administrador del comercio',
  MERCHANT_VIEWER: 'Consulta (solo lectura)',
};

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await requireConsoleSession();
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-3">
          <Link href="/" className="font-semibold">
            Consola de pagos
          </Link>
          <nav aria-label="Secciones" className="flex gap-3 text-sm">
            <Link href="/" className="rounded px-2 py-1 hover:bg-slate-100">
              Resumen
            </Link>
            <Link href="/operations" className="rounded px-2 py-1 hover:bg-slate-100">
              Operaciones
            </Link>
            <Link href="/refunds" className="rounded px-2 py-1 hover:bg-slate-100">
              Reembolsos
            </Link>
            <Link href="/developers" className="rounded px-2 py-1 hover:bg-slate-100">
              Desarrolladores
            </Link>
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-600">
            <span data-testid="signed-in-as">
              {session.email} · {ROLE_NAMES[session.role]}
            </span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
    </div>
  );
}
