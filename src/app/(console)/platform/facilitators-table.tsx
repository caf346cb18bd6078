import Link from 'next/link';
import type { ConsoleLang } from '../../console-ui/i18n';
import { businessTime, zoneName } from '../../console-ui/format';
import { CELL, DataTable, EmptyState } from '../../console-ui/table';

const TEXT = {
  es: {
    caption: 'Facilitadores de pago y sus comercios',
    code: 'Código',
    name: 'Nombre',
    merchants: 'Comercios vinculados',
    created: (zone: string) => `Creado (${zoneName(zone)})`,
    none: 'Ninguno',
    empty: 'Aún no hay facilitadores de pago.',
  },
  en: {
    caption: 'Payment facilitators and their merchants',
    code: 'Code',
    name: 'Name',
    merchants: 'Linked merchants',
    created: (zone: string) => `Created (${zoneName(zone)})`,
    none: 'None',
    empty: 'There are no payment facilitators yet.',
  },
};

type Row = { code: string; name: string; merchantCodes: string[]; createdAt: string };

export function FacilitatorsTable({ rows, lang, zone }: { rows: Row[]; lang: ConsoleLang; zone: string }) {
  const text = TEXT[lang];
  if (rows.length === 0) return <EmptyState text={text.empty} />;
  return (
    <DataTable caption={text.caption} columns={[text.code, text.name, text.merchants, text.created(zone)]}>
      {rows.map((row) => (
        <tr key={row.code} className="border-t border-slate-100" data-testid="facilitator-row">
          <td className={`${CELL} font-mono`}>{row.code}</td>
          <td className={CELL}>{row.name}</td>
          <td className={CELL}>
            {row.merchantCodes.length === 0 ? (
              text.none
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
          <td className={`${CELL} whitespace-nowrap`}>{businessTime(row.createdAt, lang, zone)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
