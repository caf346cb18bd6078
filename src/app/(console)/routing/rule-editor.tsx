'use client';

import { TRPCClientError } from '@trpc/client';
import { useState } from 'react';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { Route } from '@/server/core/orchestration';
import { ActionError, INPUT } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient, errorMessage } from '../../console-ui/trpc-client';
import { useConsoleAction } from '../../console-ui/use-console-action';

const TEXT = {
  es: {
    route: (n: number) => `Ruta ${n}`,
    connector: 'Conector',
    priority: 'Prioridad',
    weight: 'Peso',
    brands: 'Marcas (VISA, MASTERCARD…)',
    bins: 'Prefijos de BIN',
    cardTypes: 'Tipos de tarjeta (CREDIT, DEBIT, PREPAID)',
    countries: 'Países de la tarjeta (PE, US…)',
    amountMin: 'Importe mínimo (céntimos)',
    amountMax: 'Importe máximo (céntimos)',
    currencies: 'Monedas (604, 840)',
    instalments: 'Cuotas',
    instalmentOptions: { any: 'cualquiera', yes: 'solo en cuotas', no: 'solo sin cuotas' },
    add: 'Agregar ruta',
    remove: 'Quitar',
    save: 'Guardar borrador',
    tryIt: 'Probar con los últimos 1 000 pagos',
    publish: 'Publicar',
    discard: 'Descartar borrador',
    saved: 'Borrador guardado.',
    published: 'Regla publicada.',
    tried: (total: number) => `De ${total} pagos recientes irían:`,
    unrouted: 'sin ruta (ruta por defecto)',
  },
  en: {
    route: (n: number) => `Route ${n}`,
    connector: 'Connector',
    priority: 'Priority',
    weight: 'Weight',
    brands: 'Brands (VISA, MASTERCARD…)',
    bins: 'BIN prefixes',
    cardTypes: 'Card types (CREDIT, DEBIT, PREPAID)',
    countries: 'Card countries (PE, US…)',
    amountMin: 'Minimum amount (cents)',
    amountMax: 'Maximum amount (cents)',
    currencies: 'Currencies (604, 840)',
    instalments: 'Instalments',
    instalmentOptions: { any: 'any', yes: 'only with instalments', no: 'only without' },
    add: 'Add route',
    remove: 'Remove',
    save: 'Save draft',
    tryIt: 'Try on the latest 1,000 payments',
    publish: 'Publish',
    discard: 'Discard draft',
    saved: 'Draft saved.',
    published: 'Rule published.',
    tried: (total: number) => `Of ${total} recent payments these would go to:`,
    unrouted: 'no route (platform default)',
  },
};

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
    amount_min: c.amount_min ?? '',
    amount_max: c.amount_max ?? '',
    currencies: c.currencies?.join(', ') ?? '',
    instalments: c.instalments === undefined ? 'any' : c.instalments ? 'yes' : 'no',
  };
}

/** The rule as the service validates it: only the conditions given, lists split on commas. */
function toRoute(row: Row) {
  const conditions: Record<string, unknown> = {};
  for (const list of LISTS) {
    const items = row[list]
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    if (row[list].trim() !== '') conditions[list] = items;
  }
  if (row.amount_min.trim()) conditions.amount_min = row.amount_min.trim();
  if (row.amount_max.trim()) conditions.amount_max = row.amount_max.trim();
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
  const lang = useConsoleLang();
  const text = TEXT[lang];
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
    consoleClient.console.routing.saveDraft.mutate({ ...target, routes: rows.map(toRoute) }).then(
      () => {
        setNotice(text.saved);
        run(() => Promise.resolve());
      },
      (failure: unknown) => {
        setErrors(fieldErrors(failure));
        setError(errorMessage(failure, lang));
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
          <legend className="px-1 text-sm font-medium">{text.route(index + 1)}</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
            <label className="block text-xs">
              {text.connector}
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
            {input(index, 'priority', text.priority)}
            {input(index, 'weight', text.weight)}
            {input(index, 'brands', text.brands)}
            {input(index, 'bin_prefixes', text.bins)}
            {input(index, 'card_types', text.cardTypes)}
            {input(index, 'card_countries', text.countries)}
            {input(index, 'amount_min', text.amountMin)}
            {input(index, 'amount_max', text.amountMax)}
            {input(index, 'currencies', text.currencies)}
            <label className="block text-xs">
              {text.instalments}
              <select
                className={INPUT}
                value={row.instalments}
                disabled={disabled}
                onChange={(event) => change(index, 'instalments', event.target.value)}
              >
                {(['any', 'yes', 'no'] as const).map((value) => (
                  <option key={value} value={value}>
                    {text.instalmentOptions[value]}
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
              {text.remove}
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
            {text.add}
          </button>
          <button
            type="button"
            disabled={disabled}
            className="rounded-md bg-slate-800 px-3 py-1.5 text-sm text-white"
            onClick={save}
          >
            {text.save}
          </button>
          {hasDraft ? (
            <>
              <button
                type="button"
                disabled={disabled}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
                onClick={() => run(() => consoleClient.console.routing.tryDraft.query(target), setTried, { refresh: false })}
              >
                {text.tryIt}
              </button>
              <button
                type="button"
                disabled={disabled}
                className="rounded-md bg-green-800 px-3 py-1.5 text-sm text-white"
                onClick={() =>
                  run(
                    () => consoleClient.console.routing.publishDraft.mutate(target),
                    () => setNotice(text.published),
                  )
                }
              >
                {text.publish}
              </button>
              <button
                type="button"
                disabled={disabled}
                className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-800"
                onClick={() => run(() => consoleClient.console.routing.discardDraft.mutate(target))}
              >
                {text.discard}
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      {tried ? (
        <div className="text-sm" data-testid="try-result">
          <p>{text.tried(tried.total)}</p>
          <ul className="list-disc pl-5">
            {Object.entries(tried.byConnector).map(([connector, count]) => (
              <li key={connector}>
                <span className="font-mono">{connector}</span>: {count}
              </li>
            ))}
            {tried.unrouted ? (
              <li>
                {text.unrouted}: {tried.unrouted}
              </li>
            ) : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
