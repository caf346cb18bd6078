'use client';

import { TRPCClientError } from '@trpc/client';
import { useId, useState } from 'react';
import { EVENT_TYPES } from '@/server/core/domain/event-types';
import { DANGER_OUTLINE_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../console-ui/buttons';
import { ActionError, Confirm, INPUT } from '../../console-ui/form-kit';
import { formText } from '../../console-ui/form-text';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleAction, type KnownErrors } from '../../console-ui/use-console-action';

// The webhook endpoint actions of /developers (admins only): the new endpoint form, and each
// row's test event, disable or enable, and remove (after a confirmation).

const TEXT = {
  es: {
    heading: 'Nuevo endpoint',
    url: 'URL del endpoint',
    urlHint: 'Absoluta, con https:// (o http://). Recibe un POST firmado por cada evento.',
    description: 'Descripción (opcional)',
    types: 'Eventos que recibe',
    every: 'Todos los eventos',
    create: 'Agregar endpoint',
    created: (url: string) => `Endpoint ${url} agregado.`,
    fieldUrl: 'Debe ser una URL absoluta que empiece por http:// o https://, de hasta 2048 caracteres.',
    fieldTypes: 'Elige todos los eventos o al menos un tipo.',
    fieldDescription: 'Hasta 256 caracteres de texto.',
    checkFields: 'Revisa los campos marcados.',
    tooMany: 'Un comercio tiene como máximo 16 endpoints: elimina uno antes de agregar otro.',
    test: 'Enviar evento de prueba',
    testOf: (url: string) => `Enviar evento de prueba a ${url}`,
    testSent: (id: string) => `Evento de prueba ${id} en cola: llegará en unos segundos.`,
    disable: 'Desactivar',
    disableOf: (url: string) => `Desactivar ${url}`,
    enable: 'Activar',
    enableOf: (url: string) => `Activar ${url}`,
    remove: 'Eliminar',
    removeOf: (url: string) => `Eliminar ${url}`,
    confirmRemove: (url: string) => `¿Eliminar el endpoint ${url}?`,
    removeEffect: 'Deja de recibir eventos y sus entregas pendientes se descartan. No se puede deshacer.',
    yesRemove: 'Sí, eliminar',
    no: 'No',
    disabledNow: 'El endpoint está desactivado: actívalo para enviarle eventos.',
  },
  en: {
    heading: 'New endpoint',
    url: 'Endpoint URL',
    urlHint: 'Absolute, with https:// (or http://). It gets a signed POST for each event.',
    description: 'Description (optional)',
    types: 'Events it receives',
    every: 'Every event',
    create: 'Add endpoint',
    created: (url: string) => `Endpoint ${url} added.`,
    fieldUrl: 'It must be an absolute URL starting with http:// or https://, at most 2048 characters.',
    fieldTypes: 'Choose every event or at least one type.',
    fieldDescription: 'At most 256 characters of text.',
    checkFields: 'Check the marked fields.',
    tooMany: 'A merchant has at most 16 endpoints: remove one before adding another.',
    test: 'Send a test event',
    testOf: (url: string) => `Send a test event to ${url}`,
    testSent: (id: string) => `Test event ${id} queued: it arrives in a few seconds.`,
    disable: 'Disable',
    disableOf: (url: string) => `Disable ${url}`,
    enable: 'Enable',
    enableOf: (url: string) => `Enable ${url}`,
    remove: 'Remove',
    removeOf: (url: string) => `Remove ${url}`,
    confirmRemove: (url: string) => `Remove the endpoint ${url}?`,
    removeEffect: 'It stops receiving events and its pending deliveries are dropped. This cannot be undone.',
    yesRemove: 'Yes, remove',
    no: 'No',
    disabledNow: 'The endpoint is disabled: enable it to send it events.',
  },
};

type Field = 'url' | 'description' | 'eventTypes';
const FIELDS: readonly string[] = ['url', 'description', 'eventTypes'] satisfies Field[];

/** The field errors of a refused call, by the form's field (the service's message for others). */
function fieldErrors(failure: unknown): { fields: Partial<Record<Field, true>>; others: string[] } {
  const fields: Partial<Record<Field, true>> = {};
  const others: string[] = [];
  if (!(failure instanceof TRPCClientError)) return { fields, others };
  const data = failure.data as { kind?: string; errors?: { field?: string; message: string }[] } | undefined;
  if (data?.kind !== 'VALIDATION') return { fields, others };
  for (const item of data.errors ?? []) {
    const field = item.field?.split(/[.[]/)[0] ?? '';
    if (FIELDS.includes(field)) fields[field as Field] = true;
    else others.push(item.field ? `${item.field}: ${item.message}` : item.message);
  }
  return { fields, others };
}

const CREATE_ERRORS: KnownErrors = {
  VALIDATION: { es: TEXT.es.checkFields, en: TEXT.en.checkFields },
  STATE_CONFLICT: { es: TEXT.es.tooMany, en: TEXT.en.tooMany },
};

export function CreateWebhookEndpoint({ merchantCode }: { merchantCode?: string }) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const action = useConsoleAction(CREATE_ERRORS);
  const id = useId();
  const [every, setEvery] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [invalid, setInvalid] = useState<{ fields: Partial<Record<Field, true>>; others: string[] }>({ fields: {}, others: [] });
  const [created, setCreated] = useState<string | null>(null);
  const fieldError = (field: Field, message: string) =>
    invalid.fields[field] ? (
      <span id={`${id}-${field}-error`} className="mt-1 block text-xs font-medium text-red-800">
        {message}
      </span>
    ) : null;
  const describedBy = (field: Field, hint = false) =>
    [hint ? `${id}-${field}-hint` : '', invalid.fields[field] ? `${id}-${field}-error` : ''].filter(Boolean).join(' ') ||
    undefined;
  return (
    <form
      aria-labelledby={`${id}-heading`}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-3"
      data-testid="webhook-create"
      onSubmit={(event) => {
        event.preventDefault();
        const element = event.currentTarget;
        const form = new FormData(element);
        const url = formText(form, 'url').trim();
        setCreated(null);
        action.run(
          () =>
            consoleClient.console.webhooks.create
              .mutate({
                merchantCode,
                url,
                description: formText(form, 'description').trim(),
                eventTypes: every ? ['*'] : types,
              })
              .catch((failure: unknown) => {
                setInvalid(fieldErrors(failure));
                throw failure;
              }),
          (endpoint) => {
            setInvalid({ fields: {}, others: [] });
            setCreated(text.created(endpoint.url));
            element.reset();
            setEvery(true);
            setTypes([]);
          },
        );
      }}
    >
      <h3 id={`${id}-heading`} className="font-semibold">
        {text.heading}
      </h3>
      <fieldset disabled={action.busy} className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="text-sm">
            <label htmlFor={`${id}-url`} className="block">
              {text.url}
            </label>
            <input
              id={`${id}-url`}
              name="url"
              type="url"
              inputMode="url"
              required
              maxLength={2048}
              autoComplete="off"
              spellCheck={false}
              placeholder="https://"
              aria-invalid={invalid.fields.url ? true : undefined}
              aria-describedby={describedBy('url', true)}
              className={INPUT}
            />
            <span id={`${id}-url-hint`} className="mt-1 block text-xs text-slate-600">
              {text.urlHint}
            </span>
            {fieldError('url', text.fieldUrl)}
          </div>
          <div className="text-sm">
            <label htmlFor={`${id}-description`} className="block">
              {text.description}
            </label>
            <input
              id={`${id}-description`}
              name="description"
              maxLength={256}
              autoComplete="off"
              aria-invalid={invalid.fields.description ? true : undefined}
              aria-describedby={describedBy('description')}
              className={INPUT}
            />
            {fieldError('description', text.fieldDescription)}
          </div>
        </div>
        <fieldset className="text-sm" aria-describedby={describedBy('eventTypes')}>
          <legend className="mb-1">{text.types}</legend>
          <label className="mb-2 flex items-center gap-2 font-medium">
            <input
              type="checkbox"
              checked={every}
              onChange={(event) => {
                setEvery(event.target.checked);
                if (event.target.checked) setTypes([]);
              }}
            />
            {text.every}
          </label>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={types.includes(type)}
                  onChange={(event) => {
                    const next = event.target.checked ? [...types, type] : types.filter((item) => item !== type);
                    setTypes(EVENT_TYPES.filter((item) => next.includes(item)));
                    if (event.target.checked) setEvery(false);
                  }}
                />
                <code className="text-xs">{type}</code>
              </label>
            ))}
          </div>
          {fieldError('eventTypes', text.fieldTypes)}
        </fieldset>
      </fieldset>
      <ActionError message={action.error} />
      {action.error && invalid.others.length > 0 ? (
        <ul className="list-disc pl-5 text-sm text-red-800">
          {invalid.others.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={action.busy} className={PRIMARY_BUTTON}>
          {text.create}
        </button>
        <span role="status" className="text-sm text-emerald-800">
          {created}
        </span>
      </div>
    </form>
  );
}

const ROW_ERRORS: KnownErrors = { STATE_CONFLICT: { es: TEXT.es.disabledNow, en: TEXT.en.disabledNow } };

/** A row's actions: send a test event, disable or enable, remove (after a confirmation). */
export function WebhookEndpointActions({ endpointId, url, enabled }: { endpointId: string; url: string; enabled: boolean }) {
  const lang = useConsoleLang();
  const text = TEXT[lang];
  const action = useConsoleAction(ROW_ERRORS);
  const [confirming, setConfirming] = useState(false);
  const [testEvent, setTestEvent] = useState<string | null>(null);
  const webhooks = consoleClient.console.webhooks;
  return (
    <div className="min-w-56 space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        {enabled ? (
          <button
            type="button"
            aria-label={text.testOf(url)}
            disabled={action.busy}
            className={SECONDARY_BUTTON}
            onClick={() => {
              setTestEvent(null);
              action.run(
                () => webhooks.sendTest.mutate({ id: endpointId }),
                (sent) => setTestEvent(sent.eventId),
              );
            }}
          >
            {text.test}
          </button>
        ) : null}
        <button
          type="button"
          aria-label={enabled ? text.disableOf(url) : text.enableOf(url)}
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          onClick={() => {
            setTestEvent(null);
            action.run(() => webhooks.update.mutate({ id: endpointId, enabled: !enabled }));
          }}
        >
          {enabled ? text.disable : text.enable}
        </button>
        <button
          type="button"
          aria-label={text.removeOf(url)}
          disabled={action.busy || confirming}
          className={DANGER_OUTLINE_BUTTON}
          onClick={() => setConfirming(true)}
        >
          {text.remove}
        </button>
      </div>
      {confirming ? (
        <Confirm
          id={`confirm-remove-${endpointId}`}
          title={text.confirmRemove(url)}
          body={text.removeEffect}
          yes={text.yesRemove}
          no={text.no}
          busy={action.busy}
          onYes={() =>
            action.run(
              () => webhooks.remove.mutate({ id: endpointId }),
              () => setConfirming(false),
            )
          }
          onNo={() => setConfirming(false)}
        />
      ) : null}
      {testEvent ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-900" data-testid="webhook-test-sent">
          {text.testSent(testEvent)}
        </p>
      ) : null}
      <ActionError message={action.error} />
    </div>
  );
}
