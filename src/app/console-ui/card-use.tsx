import { getTranslations } from 'next-intl/server';
import type { CardUse as Use } from '@/server/modules/console/customers';
import type { StoredCredentialReason } from '@/server/core/domain/stored-credentials';

/** How a charge used a saved card, in words: "saved card", "one-click", "merchant-initiated (recurring)". */
export async function CardUse({ use }: { use: { kind: Use; reason: string | null } }) {
  const t = await getTranslations('customers.use');
  const customers = await getTranslations('customers');
  const reason = use.reason ? customers(`reasons.${use.reason as StoredCredentialReason}`).toLowerCase() : null;
  return (
    <span className="rounded bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-900" data-testid="card-use">
      {use.kind === 'merchant_initiated' && reason ? t('merchantInitiatedFor', { reason }) : t(`kind.${use.kind}`)}
    </span>
  );
}
