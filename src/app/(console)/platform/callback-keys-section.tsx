import { useFormatter, useTranslations } from 'next-intl';
import { Section } from '../../console-ui/form-kit';
import { businessTime } from '../../console-ui/format';
import { CELL, DataTable } from '../../console-ui/table';
import { RotateCallbackKey } from './rotate-callback-key';

type Key = { kid: string; active: boolean; createdAt: string; retiresAt: string | null };
type Props = { keys: Key[]; configured: boolean; canEdit: boolean };

/** The keys callbacks may be signed with now and, for platform admins, a rotation. */
export function CallbackKeysSection({ keys, configured, canEdit }: Props) {
  const t = useTranslations('platform.callbackKeysSection');
  const format = useFormatter();
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
            <td className={CELL}>{businessTime(format, key.createdAt)}</td>
            <td className={CELL}>{key.retiresAt ? businessTime(format, key.retiresAt) : t('never')}</td>
          </tr>
        ))}
      </DataTable>
      {configured ? <p className="text-sm">{t('configured')}</p> : canEdit ? <RotateCallbackKey /> : null}
    </Section>
  );
}
