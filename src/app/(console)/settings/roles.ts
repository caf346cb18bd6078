export const MERCHANT_ROLES = ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const;
export type MerchantRole = (typeof MERCHANT_ROLES)[number];
