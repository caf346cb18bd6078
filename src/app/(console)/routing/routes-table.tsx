import type { Route } from '@/server/core/orchestration';
import type { ConsoleLang } from '../../console-ui/i18n';
import { CELL, DataTable } from '../../console-ui/table';

const TEXT = {
  es: { columns: ['Prioridad', 'Conector', 'Peso', 'Condiciones'], any: 'cualquier pago' },
  en: { columns: ['Priority', 'Connector', 'Weight', 'Conditions'], any: 'any payment' },
};

/** A rule's routes as a table: priority, connector, weight and its conditions in one line. */
export function RoutesTable({ routes, lang }: { routes: Route[]; lang: ConsoleLang }) {
  const text = TEXT[lang];
  return (
    <DataTable columns={text.columns} testId="routes">
      {routes.map((route, index) => (
        <tr key={index} className="border-t border-slate-100">
          <td className={CELL}>{route.priority}</td>
          <td className={`${CELL} font-mono`}>{route.connector}</td>
          <td className={CELL}>{route.weight}</td>
          <td className={`${CELL} font-mono text-xs`}>
            {Object.keys(route.conditions).length === 0 ? text.any : JSON.stringify(route.conditions)}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
