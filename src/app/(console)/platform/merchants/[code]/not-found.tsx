import { getTranslations } from 'next-intl/server';
import { NotFoundNotice } from '../../../../console-ui/not-found-notice';

export default async function MerchantNotFound() {
  const t = await getTranslations('platform.merchants.detail.notFound');
  return <NotFoundNotice text={{ title: t('title'), body: t('body'), back: t('back') }} href="/platform" />;
}
