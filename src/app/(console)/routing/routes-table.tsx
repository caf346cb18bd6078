import { useTranslations } from 'next-intl';
import type { Route } from '@/server/core/orchestration';
import { inputOfCents } from '../../console-ui/amount-input';
import { CELL, DataTable } from '../../console-ui/table';

/** A route's conditions in words, one per part: amounts in the currency's unit, card types in the console's language. */
function useConditionWords(): (conditions: Route['conditions']) => string[] {
  const t = useTranslations('routing.routesTable.condition');
  const routing = useTranslations('routing');
  return (c) =>
    [
      c.brands ? t('brands', { list: c.brands.join(', ') }) : null,
      c.bin_prefixes ? t('bins', { list: c.bin_prefixes.join(', ') }) : null,
      c.card_types ? t('cardTypes', { list: c.card_types.map((type) => routing(`cardTypes.${type}`)).join(', ') }) : null,
      c.card_countries ? t('countries', { list: c.card_countries.join(', ') }) : null,
      c.amount_min ? t('amountMin', { amount: inputOfCents(c.amount_min) }) : null,
      c.amount_max ? t('amountMax', { amount: inputOfCents(c.amount_max) }) : null,
      c.currencies ? t('currencies', { list: c.currencies.join(', ') }) : null,
      c.instalments === undefined ? null : t('instalments', { only: String(c.instalments) }),
    ].filter((part) => part !== null);
}

/** A rule's routes as a table: priority, connector, weight and its conditions in one line. */
export function RoutesTable({ routes }: { routes: Route[] }) {
  const t = useTranslations('routing.routesTable');
  const words = useConditionWords();
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
          <td className={`${CELL} text-sm`}>
            {Object.keys(route.conditions).length === 0 ? t('any') : words(route.conditions).join(' · ')}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
