import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { businessTime, zoneName } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';

type Row = { code: string; name: string; merchantCodes: string[]; createdAt: string };

export function FacilitatorsTable({ rows, zone }: { rows: Row[]; zone: string }) {
  const t = useTranslations('platform.facilitatorsTable');
  const format = useFormatter();
  if (rows.length === 0) return <EmptyState text={t('empty')} />;
  return (
    <DataTable caption={t('caption')} columns={[t('code'), t('name'), t('merchants'), t('created', { zone: zoneName(zone) })]}>
      {rows.map((row) => (
        <tr key={row.code} className="border-t border-slate-100" data-testid="facilitator-row">
          <td className={`${CELL} font-mono`}>{row.code}</td>
          <td className={CELL}>{row.name}</td>
          <td className={CELL}>
            {row.merchantCodes.length === 0 ? (
              t('none')
            ) : (
              <ul className="flex flex-wrap gap-x-3">
                {row.merchantCodes.map((code) => (
                  <li key={code}>
                    <Link href={`/platform/merchants/${encodeURIComponent(code)}`} className="font-mono text-blue-800 underline">
                      {code}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </td>
          <td className={`${CELL} whitespace-nowrap`}>{businessTime(format, row.createdAt)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
