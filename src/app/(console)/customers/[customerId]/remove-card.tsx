'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { consoleClient } from '../../../console-ui/trpc-client';
import { ConfirmThenAct } from '../../../console-ui/confirm-then-act';

/**
 * Removes a saved card (its number destroyed), asking first; the page then shows it REMOVED, and
 * this stays mounted without its button (`active` false) so that its message outlives the refresh.
 */
export function RemoveCard({
  customerId,
  cardId,
  card,
  active,
}: {
  customerId: string;
  cardId: string;
  card: string;
  active: boolean;
}) {
  const t = useTranslations('customers.detail.remove');
  const router = useRouter();
  return (
    <ConfirmThenAct
      id={`remove-${cardId}`}
      label={t('label')}
      title={t('title', { card })}
      body={t('body')}
      yes={t('yes')}
      no={t('no')}
      act={async () => {
        const removed = await consoleClient.console.removeSavedCard.mutate({ customerId, cardId });
        router.refresh();
        return removed;
      }}
      done={() => t('done', { card })}
      doneTestId="card-removed"
      available={active}
    />
  );
}
