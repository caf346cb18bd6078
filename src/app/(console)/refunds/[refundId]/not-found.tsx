import { getTranslations } from 'next-intl/server';
import { NotFoundNotice } from '../../../console-ui/not-found-notice';

/** Also what a user sees for another merchant's refund: it does not exist for them. */
export default async function RefundNotFound() {
  const t = await getTranslations('refunds.detail.notFound');
  return <NotFoundNotice text={{ title: t('title'), body: t('body'), back: t('back') }} href="/refunds" />;
}
