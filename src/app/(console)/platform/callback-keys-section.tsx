import { useTranslations } from 'next-intl';
import type { ConsoleLang } from '../../console-ui/i18n';
import { Section } from '../../console-ui/form-kit';
import { businessTime } from '../../console-ui/format';
import { CELL, DataTable } from '../../console-ui/table';
import { RotateCallbackKey } from './rotate-callback-key';

type Key = { kid: string; active: boolean; createdAt: string; retiresAt: string | null };
type Props = { keys: Key[]; configured: boolean; canEdit: boolean; lang: ConsoleLang; zone: string };

/** The keys callbacks may be signed with now and, for platform admins, a rotation. */
export function CallbackKeysSection({ keys, configured, canEdit, lang, zone }: Props) {
  const t = useTranslations('platform.callbackKeysSection');
  return (
    <Section id="callback-keys" title={t('title')}>
      <p className="text-sm text-slate-600">{t('about')}</p>
      <DataTable
        caption={t('title')}
        columns={[t('columns.id'), t('columns.state'), t('columns.created'), t('columns.until')]}
        testId="callback-keys"
      >
        {keys.map((key) => (
          <tr key={key.kid} className="border-t border-slate-100" data-testid="callback-key">
            <td className={`${CELL} font-mono`}>{key.kid}</td>
            <td className={CELL}>{key.active ? t('active') : t('retiring')}</td>
            <td className={CELL}>{businessTime(key.createdAt, lang, zone)}</td>
            <td className={CELL}>{key.retiresAt ? businessTime(key.retiresAt, lang, zone) : t('never')}</td>
          </tr>
        ))}
      </DataTable>
      {configured ? <p className="text-sm">{t('configured')}</p> : canEdit ? <RotateCallbackKey /> : null}
    </Section>
  );
}
