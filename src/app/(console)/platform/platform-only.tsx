import { useTranslations } from 'next-intl';
import { Notice } from '../../console-ui/notice';

/** What a merchant user sees at /platform: a pointer to its own settings (the procedures refuse it anyway). */
export function PlatformOnly() {
  const t = useTranslations('platform.platformOnly');
  return <Notice title={t('title')} body={t('body')} href="/settings" link={t('link')} />;
}
