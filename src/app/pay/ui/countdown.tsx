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

/**
 * A live countdown to the expiry. The first render uses the server's clock (`renderedAt`), so
 * server and browser HTML agree whatever the phone's clock says; then the browser's clock
 * takes over. At zero it says so and reloads, so the page shows the outcome.
 */
export function Countdown({
  expiresAt,
  renderedAt,
  label,
  expiredLabel,
}: {
  expiresAt: string;
  renderedAt: string;
  label: string;
  expiredLabel: string;
}) {
  const deadline = new Date(expiresAt).getTime();
  const [now, setNow] = useState(() => new Date(renderedAt).getTime());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const over = now >= deadline;
  useEffect(() => {
    if (!over) return;
    const reload = setTimeout(() => window.location.reload(), 1500);
    return () => clearTimeout(reload);
  }, [over]);
  return (
    <p role="timer" className={over ? 'font-medium text-red-700' : 'text-slate-700'} data-testid="countdown">
      {over ? expiredLabel : `${label} ${remaining(deadline, now)}`}
    </p>
  );
}
