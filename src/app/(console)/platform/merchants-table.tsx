import Link from 'next/link';
import type { ConsoleLang } from '../../console-ui/i18n';
import { businessTime, zoneName } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';

const TEXT = {
  es: {
    caption: 'Comercios, del más reciente al más antiguo',
    code: 'Código',
    name: 'Nombre',
    facilitator: 'Facilitador',
    methods: 'Medios habilitados',
    created: (zone: string) => `Creado (${zoneName(zone)})`,
    none: '—',
    empty: 'Ningún comercio coincide con la búsqueda.',
    more: (count: number) => `Se muestran los ${count} más recientes: afina la búsqueda para ver otros.`,
  },
  en: {
    caption: 'Merchants, newest first',
    code: 'Code',
    name: 'Name',
    facilitator: 'Facilitator',
    methods: 'Enabled methods',
    created: (zone: string) => `Created (${zoneName(zone)})`,
    none: '—',
    empty: 'No merchant matches the search.',
    more: (count: number) => `Showing the ${count} newest: refine the search to see others.`,
  },
};

type Row = { code: string; name: string; facilitatorCode: string | null; enabledMethods: string[]; createdAt: string };

export function MerchantsTable({ rows, more, lang, zone }: { rows: Row[]; more: boolean; lang: ConsoleLang; zone: string }) {
  const text = TEXT[lang];
  if (rows.length === 0) return <EmptyState text={text.empty} />;
  return (
    <>
      <DataTable caption={text.caption} columns={[text.code, text.name, text.facilitator, text.methods, text.created(zone)]}>
        {rows.map((row) => (
          <tr key={row.code} className="border-t border-slate-100" data-testid="merchant-row">
            <td className={CELL}>
              <Link href={`/platform/merchants/${encodeURIComponent(row.code)}`} className="font-mono text-blue-800 underline">
                {row.code}
              </Link>
            </td>
            <td className={CELL}>{row.name}</td>
            <td className={`${CELL} font-mono`}>{row.facilitatorCode ?? text.none}</td>
            <td className={`${CELL} font-mono text-xs`}>{row.enabledMethods.join(' ') || text.none}</td>
            <td className={`${CELL} whitespace-nowrap`}>{businessTime(row.createdAt, lang, zone)}</td>
          </tr>
        ))}
      </DataTable>
      {more ? <p className="text-sm text-slate-600">{text.more(rows.length)}</p> : null}
    </>
  );
}
