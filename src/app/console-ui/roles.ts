import type { Role } from '@/server/auth/console-session';

// What a role may do in the console pages (the procedures enforce the same rules).
export function canAct(role: Role): boolean {
  return role === 'PLATFORM_ADMIN' || role === 'MERCHANT_ADMIN';
}

/** Platform staff see every merchant (and must choose one to act for). */
export function isPlatformRole(role: Role): boolean {
  return role === 'PLATFORM_ADMIN' || role === 'SUPPORT';
}
