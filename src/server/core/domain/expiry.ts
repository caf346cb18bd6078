import type { PaymentMethod } from './states';

// Pending payments and how long the payer has to complete them (docs/DESIGN.md 8). A merchant may
// override a default; the service accepts overrides between one second and 30 days.
export const PENDING_METHODS = ['BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] as const satisfies readonly PaymentMethod[];
export type PendingMethod = (typeof PENDING_METHODS)[number];

export const DEFAULT_EXPIRY_SECONDS: Readonly<Record<PendingMethod, number>> = {
  BANK_TRANSFER: 30 * 60,
  CUOTEALO: 60 * 60,
  PAGOEFECTIVO: 24 * 60 * 60,
  QR: 15 * 60,
};

export const MAX_EXPIRY_SECONDS = 30 * 86_400;

/** The console sets expiries in whole minutes: from 1 minute to the service's 30 days. */
export const EXPIRY_MINUTES = { min: 1, max: MAX_EXPIRY_SECONDS / 60 } as const;

/** The stored overrides (seconds) of a merchant, keeping only positive whole numbers of pending methods. */
export function expiryOverrides(stored: unknown): Partial<Record<PendingMethod, number>> {
  const record = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  return Object.fromEntries(
    PENDING_METHODS.flatMap((method) => {
      const value = record[method];
      return typeof value === 'number' && Number.isInteger(value) && value > 0 ? [[method, value]] : [];
    }),
  );
}
