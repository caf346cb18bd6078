import type { Role } from './console-session';

// Who may do what (docs/DESIGN.md 1): the one place roles are compared. The procedures enforce
// it; pages and layouts ask it only to show or hide what a role can do.
const GRANTS = {
  /** See every merchant (and choose one to act for); merchant roles see only their own. */
  'merchants:all': ['PLATFORM_ADMIN', 'SUPPORT'],
  /** Act for a merchant: cancel, refund, resend, credentials, settings and people. */
  'merchant:act': ['PLATFORM_ADMIN', 'MERCHANT_ADMIN'],
  /** Read the platform's merchants, facilitators and settlement. */
  'platform:read': ['PLATFORM_ADMIN', 'SUPPORT'],
  /** Change the platform (merchants, facilitators, links, settlement) and call the operator's procedures. */
  'platform:act': ['PLATFORM_ADMIN'],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof GRANTS;

export function can(role: Role, capability: Capability): boolean {
  return (GRANTS[capability] as readonly Role[]).includes(role);
}
