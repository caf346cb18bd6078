export const ROLES = ['PLATFORM_ADMIN', 'SUPPORT', 'MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const;
export type Role = (typeof ROLES)[number];

/** Who acts in the console or from the operator CLI. */
export type ConsoleSession = {
  userId: string | null;
  email: string;
  role: Role;
  merchantId: string | null;
  /** The user's session generation the session was signed in under (live-session.ts); 0 when its token predates them. */
  generation?: number;
};
