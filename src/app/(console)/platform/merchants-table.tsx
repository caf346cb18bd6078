import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { businessTime, zoneName } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';

type Row = { code: string; name: string; facilitatorCode: string | null; enabledMethods: string[]; createdAt: string };

export function MerchantsTable({ rows, more, zone }: { rows: Row[]; more: boolean; zone: string }) {
  const t = useTranslations('platform.merchantsTable');
  const format = useFormatter();
  if (rows.length === 0) return <EmptyState text={t('empty')} />;
  return (
    <>
      <DataTable
        caption={t('caption')}
        columns={[t('code'), t('name'), t('facilitator'), t('methods'), t('created', { zone: zoneName(zone) })]}
      >
        {rows.map((row) => (
          <tr key={row.code} className="border-t border-slate-100" data-testid="merchant-row">
            <td className={CELL}>
              <Link href={`/platform/merchants/${encodeURIComponent(row.code)}`} className="font-mono text-blue-800 underline">
                {row.code}
              </Link>
            </td>
            <td className={CELL}>{row.name}</td>
            <td className={`${CELL} font-mono`}>{row.facilitatorCode ?? t('none')}</td>
            <td className={`${CELL} font-mono text-xs`}>{row.enabledMethods.join(' ') || t('none')}</td>
            <td className={`${CELL} whitespace-nowrap`}>{businessTime(format, row.createdAt)}</td>
          </tr>
        ))}
      </DataTable>
      {more ? <p className="text-sm text-slate-600">{t('more', { count: rows.length })}</p> : null}
    </>
  );
}
