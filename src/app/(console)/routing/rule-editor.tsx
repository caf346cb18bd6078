'use client';

import { useTranslations } from 'next-intl';
import { TRPCClientError } from '@trpc/client';
import { useState } from 'react';
import type { PaymentMethod } from '@/server/core/domain/states';
import { CARD_TYPE_VALUES, type Route } from '@/server/core/orchestration';
import { centsOfInput, inputOfCents } from '../../console-ui/amount-input';
import { ActionError, INPUT } from '../../console-ui/form-kit';
import { consoleClient } from '../../console-ui/trpc-client';
import { useErrorMessage } from '../../console-ui/use-console-action';
import { useConsoleAction } from '../../console-ui/use-console-action';

type Row = {
  connector: string;
  priority: string;
  weight: string;
  brands: string;
  bin_prefixes: string;
  card_types: string;
  card_countries: string;
  amount_min: string;
  amount_max: string;
  currencies: string;
  instalments: 'any' | 'yes' | 'no';
};

const LISTS = ['brands', 'bin_prefixes', 'card_types', 'card_countries', 'currencies'] as const;

function toRow(route: Route): Row {
  const c = route.conditions;
  return {
    connector: route.connector,
    priority: String(route.priority),
    weight: String(route.weight),
    brands: c.brands?.join(', ') ?? '',
    bin_prefixes: c.bin_prefixes?.join(', ') ?? '',
    card_types: c.card_types?.join(', ') ?? '',
    card_countries: c.card_countries?.join(', ') ?? '',
    // Stored in cents; shown and typed in the currency's unit (soles, dollars).
    amount_min: c.amount_min ? inputOfCents(c.amount_min) : '',
    amount_max: c.amount_max ? inputOfCents(c.amount_max) : '',
    currencies: c.currencies?.join(', ') ?? '',
    instalments: c.instalments === undefined ? 'any' : c.instalments ? 'yes' : 'no',
  };
}

const AMOUNTS = ['amount_min', 'amount_max'] as const;

/** The amount fields the person typed that are no amount (see amount-input.ts). */
function badAmounts(row: Row): (typeof AMOUNTS)[number][] {
  return AMOUNTS.filter((field) => row[field].trim() !== '' && centsOfInput(row[field]) === null);
}

/** The rule as the service validates it: only the conditions given, lists split on commas, amounts in cents. */
function toRoute(row: Row) {
  const conditions: Record<string, unknown> = {};
  for (const list of LISTS) {
    const items = row[list]
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (row[list].trim() !== '') conditions[list] = items;
  }
  for (const field of AMOUNTS) if (row[field].trim()) conditions[field] = centsOfInput(row[field]);
  if (row.instalments !== 'any') conditions.instalments = row.instalments === 'yes';
  return { connector: row.connector, priority: Number(row.priority), weight: Number(row.weight), conditions };
}

/** Errors of a refused save, by route index: the service names each field `routes[i]…`. */
function fieldErrors(failure: unknown): Map<number, string[]> {
  const byRoute = new Map<number, string[]>();
  if (!(failure instanceof TRPCClientError)) return byRoute;
  const errors = (failure.data as { errors?: { field?: string; message: string }[] } | undefined)?.errors ?? [];
  for (const error of errors) {
    const index = Number(/^routes\[(\d+)\]/.exec(error.field ?? '')?.[1] ?? -1);
    const list = byRoute.get(index) ?? [];
    list.push(`${(error.field ?? '').replace(/^routes\[\d+\]\.?/, '') || 'routes'}: ${error.message}`);
    byRoute.set(index, list);
  }
  return byRoute;
}

type Props = {
  merchantCode: string;
  method: PaymentMethod;
  initial: Route[];
  hasDraft: boolean;
  connectors: string[];
  canEdit: boolean;
};

/** A merchant admin's editor of one method's rule: routes as rows, each problem beside its route. */
export function RuleEditor({ merchantCode, method, initial, hasDraft, connectors, canEdit }: Props) {
  const errorText = useErrorMessage();
  const t = useTranslations('routing.ruleEditor');
  const routing = useTranslations('routing');
  const [rows, setRows] = useState<Row[]>(initial.map(toRow));
  const [errors, setErrors] = useState<Map<number, string[]>>(new Map());
  const [notice, setNotice] = useState<string | null>(null);
  const [tried, setTried] = useState<{ total: number; byConnector: Record<string, number>; unrouted: number } | null>(null);
  // A discarded draft: the rows go back to what applies now (adjusting state during render, not in an effect).
  const [hadDraft, setHadDraft] = useState(hasDraft);
  if (hadDraft !== hasDraft) {
    setHadDraft(hasDraft);
    if (!hasDraft) {
      setRows(initial.map(toRow));
      setTried(null);
    }
  }
  const { busy, error, setError, run } = useConsoleAction();
  const target = { merchantCode, method };
  const disabled = !canEdit || busy;

  const change = (index: number, field: keyof Row, value: string) =>
    setRows(rows.map((row, at) => (at === index ? { ...row, [field]: value } : row)));

  const save = () => {
    setErrors(new Map());
    setNotice(null);
    // Amounts are checked here, in the unit the person typed; the service sees only cents.
    const typed = new Map<number, string[]>();
    rows.forEach((row, index) => {
      const bad = badAmounts(row);
      const [min, max] = AMOUNTS.map((field) => centsOfInput(row[field]));
      if (bad.length > 0) {
        typed.set(
          index,
          bad.map((field) => t('badAmount', { field: t(field === 'amount_min' ? 'amountMin' : 'amountMax') })),
        );
      } else if (min && max && BigInt(min) > BigInt(max)) {
        typed.set(index, [t('minOverMax', { min: row.amount_min.trim(), max: row.amount_max.trim() })]);
      }
    });
    if (typed.size > 0) {
      setErrors(typed);
      setError(t('checkAmounts'));
      return;
    }
    consoleClient.console.routing.saveDraft.mutate({ ...target, routes: rows.map(toRoute) }).then(
      () => {
        setNotice(t('saved'));
        run(() => Promise.resolve());
      },
      (failure: unknown) => {
        setErrors(fieldErrors(failure));
        setError(errorText(failure));
      },
    );
  };

  const input = (index: number, field: keyof Row, label: string, extra = '') => (
    <label className={`block text-xs ${extra}`}>
      {label}
      <input
        className={INPUT}
        value={rows[index]![field]}
        disabled={disabled}
        onChange={(event) => change(index, field, event.target.value)}
      />
    </label>
  );

  return (
    <div className="space-y-3" data-testid="rule-editor">
      {rows.map((row, index) => (
        <fieldset key={index} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3" data-testid="route">
          <legend className="px-1 text-sm font-medium">{t('route', { n: index + 1 })}</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
            <label className="block text-xs">
              {t('connector')}
              <select
                className={INPUT}
                value={row.connector}
                disabled={disabled}
                onChange={(event) => change(index, 'connector', event.target.value)}
              >
                {[...new Set([row.connector, ...connectors])].map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            </label>
            {input(index, 'priority', t('priority'))}
            {input(index, 'weight', t('weight'))}
            {input(index, 'brands', t('brands'))}
            {input(index, 'bin_prefixes', t('bins'))}
            <fieldset className="text-xs">
              <legend>{t('cardTypes')}</legend>
              <div className="mt-1 flex flex-wrap gap-3">
                {CARD_TYPE_VALUES.map((type) => {
                  const chosen = row.card_types
                    .split(',')
                    .map((item) => item.trim())
                    .filter(Boolean);
                  return (
                    <label key={type} className="flex items-center gap-1 text-sm">
                      <input
                        type="checkbox"
                        checked={chosen.includes(type)}
                        disabled={disabled}
                        onChange={(event) =>
                          change(
                            index,
                            'card_types',
                            (event.target.checked ? [...chosen, type] : chosen.filter((each) => each !== type)).join(', '),
                          )
                        }
                      />
                      {routing(`cardTypes.${type}`)}
                    </label>
                  );
                })}
              </div>
            </fieldset>
            {input(index, 'card_countries', t('countries'))}
            {input(index, 'amount_min', t('amountMin'))}
            {input(index, 'amount_max', t('amountMax'))}
            {input(index, 'currencies', t('currencies'))}
            <label className="block text-xs">
              {t('instalments')}
              <select
                className={INPUT}
                value={row.instalments}
                disabled={disabled}
                onChange={(event) => change(index, 'instalments', event.target.value)}
              >
                {(['any', 'yes', 'no'] as const).map((value) => (
                  <option key={value} value={value}>
                    {t(`instalmentOptions.${value}`)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {errors.get(index)?.length ? (
            <ul role="alert" className="list-disc pl-5 text-sm text-red-800" data-testid="route-errors">
              {errors.get(index)!.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : null}
          {canEdit && rows.length > 1 ? (
            <button
              type="button"
              className="text-sm text-red-800 underline"
              onClick={() => setRows(rows.filter((_, at) => at !== index))}
            >
              {t('remove')}
            </button>
          ) : null}
        </fieldset>
      ))}
      {errors.get(-1)?.length ? (
        <ul role="alert" className="list-disc pl-5 text-sm text-red-800">
          {errors.get(-1)!.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      <ActionError message={error} />
      {notice ? <p className="text-sm text-green-800">{notice}</p> : null}
      {canEdit ? (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            disabled={disabled}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
            onClick={() =>
              setRows([
                ...rows,
                toRow({ connector: connectors[0] ?? '', priority: rows.length + 1, weight: 100, conditions: {} }),
              ])
            }
          >
            {t('add')}
          </button>
          <button
            type="button"
            disabled={disabled}
            className="rounded-md bg-slate-800 px-3 py-1.5 text-sm text-white"
            onClick={save}
          >
            {t('save')}
          </button>
          {hasDraft ? (
            <>
              <button
                type="button"
                disabled={disabled}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
                onClick={() => run(() => consoleClient.console.routing.tryDraft.query(target), setTried, { refresh: false })}
              >
                {t('tryIt')}
              </button>
              <button
                type="button"
                disabled={disabled}
                className="rounded-md bg-green-800 px-3 py-1.5 text-sm text-white"
                onClick={() =>
                  run(
                    () => consoleClient.console.routing.publishDraft.mutate(target),
                    () => setNotice(t('published')),
                  )
                }
              >
                {t('publish')}
              </button>
              <button
                type="button"
                disabled={disabled}
                className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-800"
                onClick={() => run(() => consoleClient.console.routing.discardDraft.mutate(target))}
              >
                {t('discard')}
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      {tried ? (
        <div className="text-sm" data-testid="try-result">
          <p>{t('tried', { total: tried.total })}</p>
          <ul className="list-disc pl-5">
            {Object.entries(tried.byConnector).map(([connector, count]) => (
              <li key={connector}>
                <span className="font-mono">{connector}</span>: {count}
              </li>
            ))}
            {tried.unrouted ? (
              <li>
                {t('unrouted')}: {tried.unrouted}
              </li>
            ) : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
