import type { ConsoleLang } from '../../console-ui/i18n';

export const MERCHANT_ROLES = ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const;
export type MerchantRole = (typeof MERCHANT_ROLES)[number];

export const ROLE_NAMES: Record<ConsoleLang, Record<MerchantRole, string>> = {
  es: { MERCHANT_ADMIN: 'Administrador', MERCHANT_VIEWER: 'Consulta (solo lectura)' },
  en: { MERCHANT_ADMIN: 'Administrator', MERCHANT_VIEWER: 'Viewer (read-only)' },
};
