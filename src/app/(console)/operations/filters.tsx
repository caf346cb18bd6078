'use client';

import { useTranslations } from 'next-intl';
import { PAYMENT_METHODS, TRANSACTION_STATES } from '@/server/core/domain/states';
import { UrlFilters } from '../../console-ui/url-filters';

export function OperationFilters() {
  const t = useTranslations('operations.filters');
  const states = useTranslations('ui.states');
  const all = { value: '', label: t('all') };
  return (
    <UrlFilters
      label={t('label')}
      fields={[
        { name: 'search', label: t('search'), kind: 'text', wide: true, placeholder: t('searchHint') },
        {
          name: 'state',
          label: t('state'),
          kind: 'select',
          options: [all, ...TRANSACTION_STATES.map((value) => ({ value, label: states(`state.${value}`) }))],
        },
        {
          name: 'method',
          label: t('method'),
          kind: 'select',
          options: [all, ...PAYMENT_METHODS.map((value) => ({ value, label: states(`method.${value}`) }))],
        },
        { name: 'from', label: t('from'), kind: 'date' },
        { name: 'to', label: t('to'), kind: 'date' },
        { name: 'min', label: t('min'), kind: 'text', inputMode: 'decimal' },
        { name: 'max', label: t('max'), kind: 'text', inputMode: 'decimal' },
        {
          name: 'sort',
          label: t('sort'),
          kind: 'select',
          options: [
            { value: '', label: t('newest') },
            { value: 'oldest', label: t('oldest') },
            { value: 'amount_desc', label: t('amountDesc') },
            { value: 'amount_asc', label: t('amountAsc') },
          ],
        },
      ]}
    />
  );
}
