'use client';

import { PAYMENT_METHODS, TRANSACTION_STATES } from '@/server/core/domain/states';
import { useConsoleLang } from '../../console-ui/lang-context';
import { UrlFilters } from '../../console-ui/url-filters';

const TEXT = {
  es: {
    label: 'Filtrar operaciones',
    all: 'Todos',
    search: 'Buscar',
    searchHint: 'N.º de operación, id, últimos 4, correo',
    state: 'Estado',
    method: 'Medio',
    from: 'Desde',
    to: 'Hasta',
    min: 'Monto mín. (S/)',
    max: 'Monto máx. (S/)',
    sort: 'Orden',
    newest: 'Más recientes',
    oldest: 'Más antiguas',
    amountDesc: 'Mayor monto',
    amountAsc: 'Menor monto',
  },
  en: {
    label: 'Filter operations',
    all: 'All',
    search: 'Search',
    searchHint: 'Operation no., id, last 4, email',
    state: 'State',
    method: 'Method',
    from: 'From',
    to: 'To',
    min: 'Min. amount (S/)',
    max: 'Max. amount (S/)',
    sort: 'Sort',
    newest: 'Newest',
    oldest: 'Oldest',
    amountDesc: 'Highest amount',
    amountAsc: 'Lowest amount',
  },
};

export function OperationFilters() {
  const text = TEXT[useConsoleLang()];
  const all = { value: '', label: text.all };
  return (
    <UrlFilters
      label={text.label}
      fields={[
        { name: 'search', label: text.search, kind: 'text', wide: true, placeholder: text.searchHint },
        {
          name: 'state',
          label: text.state,
          kind: 'select',
          options: [all, ...TRANSACTION_STATES.map((value) => ({ value, label: value }))],
        },
        {
          name: 'method',
          label: text.method,
          kind: 'select',
          options: [all, ...PAYMENT_METHODS.map((value) => ({ value, label: value }))],
        },
        { name: 'from', label: text.from, kind: 'date' },
        { name: 'to', label: text.to, kind: 'date' },
        { name: 'min', label: text.min, kind: 'text', inputMode: 'decimal' },
        { name: 'max', label: text.max, kind: 'text', inputMode: 'decimal' },
        {
          name: 'sort',
          label: text.sort,
          kind: 'select',
          options: [
            { value: '', label: text.newest },
            { value: 'oldest', label: text.oldest },
            { value: 'amount_desc', label: text.amountDesc },
            { value: 'amount_asc', label: text.amountAsc },
          ],
        },
      ]}
    />
  );
}
