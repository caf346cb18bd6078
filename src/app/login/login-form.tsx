'use client';

import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { formText } from '../console-ui/form-text';

/** After this long a sign-in still under way says so: it runs a slow password hash, slower under load. */
const SLOW_MS = 3000;

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const t = useTranslations('login.loginForm');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setSlow(true), SLOW_MS);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [busy]);
  return (
    <form
      className="space-y-4"
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setBusy(true);
        setError(null);
        void signIn('credentials', {
          email: formText(form, 'email'),
          password: formText(form, 'password'),
          redirect: false,
        }).then((result) => {
          // On success the button stays pending until the next page has loaded.
          if (result?.ok) window.location.assign(callbackUrl);
          else {
            setBusy(false);
            setError(t('failed'));
          }
        });
      }}
    >
      <label className="block">
        <span className="text-sm font-medium text-slate-700">{t('email')}</span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <label className="block">
        <span className="text-sm font-medium text-slate-700">{t('password')}</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        aria-busy={busy}
        className="w-full rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-400 disabled:opacity-60"
      >
        {busy ? t('pending') : t('submit')}
      </button>
      <p role="status" className="text-sm text-slate-600" data-testid="sign-in-slow">
        {slow ? t('slow') : ''}
      </p>
    </form>
  );
}
