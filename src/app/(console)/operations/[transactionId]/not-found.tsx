import { getTranslations } from 'next-intl/server';
import { NotFoundNotice } from '../../../console-ui/not-found-notice';

/** Also what a user sees for another merchant's operation: it does not exist for them. */
export default async function OperationNotFound() {
  const t = await getTranslations('operations.detail.notFound');
  return <NotFoundNotice text={{ title: t('title'), body: t('body'), back: t('back') }} href="/operations" />;
}
