import type { Metadata } from 'next';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Ingresar — consola de pagos' };

type Props = { searchParams: Promise<{ callbackUrl?: string }> };

/** Only paths of this site are followed after sign-in (no open redirect). */
function safeCallback(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

export default async function LoginPage({ searchParams }: Props) {
  const { callbackUrl } = await searchParams;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4">
      <h1 className="mb-6 text-2xl font-semibold">Consola de pagos</h1>
      <LoginForm callbackUrl={safeCallback(callbackUrl)} />
    </main>
  );
}
