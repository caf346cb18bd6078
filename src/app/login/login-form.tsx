'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { formText } from '../console-ui/form-text';

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="space-y-4"
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
          setBusy(false);
          if (result?.ok) window.location.assign(callbackUrl);
          else setError('Correo o contraseña incorrectos, o demasiados intentos. / Wrong email or password, or too many tries.');
        });
      }}
    >
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Correo / Email</span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </label>
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Contraseña / Password</span>
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
        className="w-full rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-400 disabled:opacity-60"
      >
        Ingresar / Sign in
      </button>
    </form>
  );
}
