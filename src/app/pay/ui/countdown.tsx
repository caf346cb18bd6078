'use client';

import { useEffect, useState } from 'react';

function remaining(expiresAt: number, now: number): string {
  const seconds = Math.max(0, Math.floor((expiresAt - now) / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${pad(minutes)}:${pad(rest)}`;
}

/** A live countdown to the expiry; at zero it says so and reloads, so the page shows the outcome. */
export function Countdown({ expiresAt, label, expiredLabel }: { expiresAt: string; label: string; expiredLabel: string }) {
  const deadline = new Date(expiresAt).getTime();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (now >= deadline) {
      const reload = setTimeout(() => window.location.reload(), 1500);
      return () => clearTimeout(reload);
    }
  }, [now, deadline]);
  const over = now >= deadline;
  return (
    <p className={over ? 'font-medium text-red-700' : 'text-slate-700'} aria-live="polite" data-testid="countdown">
      {over ? expiredLabel : `${label} ${remaining(deadline, now)}`}
    </p>
  );
}
