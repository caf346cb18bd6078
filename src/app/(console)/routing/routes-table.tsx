import { useTranslations } from 'next-intl';
import type { Route } from '@/server/core/orchestration';
import { inputOfCents } from '../../console-ui/amount-input';
import { CELL, DataTable } from '../../console-ui/table';

/** A route's conditions as the table shows them: amounts in the currency's unit, as the editor takes them. */
function shown(conditions: Route['conditions']) {
  const { amount_min, amount_max } = conditions;
  return JSON.stringify({
    ...conditions,
    ...(amount_min ? { amount_min: inputOfCents(amount_min) } : {}),
    ...(amount_max ? { amount_max: inputOfCents(amount_max) } : {}),
  });
}

/** A rule's routes as a table: priority, connector, weight and its conditions in one line. */
export function RoutesTable({ routes }: { routes: Route[] }) {
  const t = useTranslations('routing.routesTable');
  return (
    <DataTable
      caption={t('caption')}
      columns={[t('columns.priority'), t('columns.connector'), t('columns.weight'), t('columns.conditions')]}
      testId="routes"
    >
      {routes.map((route, index) => (
        <tr key={index} className="border-t border-slate-100">
          <td className={CELL}>{route.priority}</td>
          <td className={`${CELL} font-mono`}>{route.connector}</td>
          <td className={CELL}>{route.weight}</td>
          <td className={`${CELL} font-mono text-xs`}>
            {Object.keys(route.conditions).length === 0 ? t('any') : shown(route.conditions)}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
