'use client';

import { signOut } from 'next-auth/react';
import { useTranslations } from 'next-intl';

export function SignOutButton() {
  const t = useTranslations('layout');
  return (
    <button
      type="button"
      onClick={() => void signOut({ callbackUrl: '/login' })}
      className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-slate-300"
    >
      {t('signOut')}
    </button>
  );
}
