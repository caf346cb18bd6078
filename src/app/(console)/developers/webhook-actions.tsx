'use client';

import { useTranslations } from 'next-intl';
import { TRPCClientError } from '@trpc/client';
import { useId, useState } from 'react';
import { EVENT_TYPES } from '@/server/core/domain/event-types';
import { DANGER_OUTLINE_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../console-ui/buttons';
import { ActionError, Confirm, INPUT } from '../../console-ui/form-kit';
import { formText } from '../../console-ui/form-text';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleAction } from '../../console-ui/use-console-action';

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

export function CreateWebhookEndpoint({ merchantCode }: { merchantCode?: string }) {
  const t = useTranslations('developers.webhookActions');
  const action = useConsoleAction({ VALIDATION: t('checkFields'), STATE_CONFLICT: t('tooMany') });
  const id = useId();
  const [every, setEvery] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [invalid, setInvalid] = useState<{ fields: Partial<Record<Field, true>>; others: string[] }>({ fields: {}, others: [] });
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
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
            setCreated({ url: endpoint.url, secret: endpoint.secret });
            element.reset();
            setEvery(true);
            setTypes([]);
          },
        );
      }}
    >
      <h3 id={`${id}-heading`} className="font-semibold">
        {t('heading')}
      </h3>
      <fieldset disabled={action.busy} className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="text-sm">
            <label htmlFor={`${id}-url`} className="block">
              {t('url')}
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
              {t('urlHint')}
            </span>
            {fieldError('url', t('fieldUrl'))}
          </div>
          <div className="text-sm">
            <label htmlFor={`${id}-description`} className="block">
              {t('description')}
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
            {fieldError('description', t('fieldDescription'))}
          </div>
        </div>
        <fieldset className="text-sm" aria-describedby={describedBy('eventTypes')}>
          <legend className="mb-1">{t('types')}</legend>
          <label className="mb-2 flex items-center gap-2 font-medium">
            <input
              type="checkbox"
              checked={every}
              onChange={(event) => {
                setEvery(event.target.checked);
                if (event.target.checked) setTypes([]);
              }}
            />
            {t('every')}
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
          {fieldError('eventTypes', t('fieldTypes'))}
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
          {t('create')}
        </button>
      </div>
      {created ? (
        <ShownSecret heading={t('created', { url: created.url })} secret={created.secret} onDone={() => setCreated(null)} />
      ) : null}
    </form>
  );
}

/** An endpoint's signing secret, shown this once (made or rotated), with how receivers use it. */
function ShownSecret({ heading, secret, onDone }: { heading: string; secret: string; onDone: () => void }) {
  const t = useTranslations('developers.webhookActions');
  const [copied, setCopied] = useState(false);
  return (
    <div
      role="status"
      className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm"
      data-testid="webhook-secret"
    >
      <p className="font-semibold">{heading}</p>
      <p>{t('secretAbout')}</p>
      <p>
        <code className="font-mono break-all" data-testid="webhook-secret-value">
          {secret}
        </code>
        <button
          type="button"
          className="ml-2 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true))}
        >
          {copied ? t('copied') : t('copy')}
        </button>
      </p>
      <p className="font-medium text-amber-900">{t('secretOnce')}</p>
      <button type="button" className="rounded-md border border-slate-300 bg-white px-3 py-1" onClick={onDone}>
        {t('secretSaved')}
      </button>
    </div>
  );
}

/** A new signing secret for an endpoint: the current one keeps signing for a day, or stops now. */
function RotateSecret({ endpointId, url }: { endpointId: string; url: string }) {
  const t = useTranslations('developers.webhookActions');
  const action = useConsoleAction({});
  const [choosing, setChoosing] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  const rotate = (overlapHours: number) =>
    action.run(
      () => consoleClient.console.webhooks.rotateSecret.mutate({ id: endpointId, overlapHours }),
      (answer) => {
        setChoosing(false);
        setRotated(answer.secret);
      },
    );
  return (
    <div className="space-y-2">
      <button
        type="button"
        aria-label={t('rotateOf', { url })}
        disabled={action.busy || choosing}
        className={SECONDARY_BUTTON}
        onClick={() => setChoosing(true)}
      >
        {t('rotate')}
      </button>
      {choosing ? (
        <div
          role="group"
          aria-labelledby={`rotate-${endpointId}`}
          className="space-y-2 rounded-md border border-slate-300 bg-slate-50 p-3"
        >
          <p id={`rotate-${endpointId}`} className="font-medium">
            {t('confirmRotate', { url })}
          </p>
          <p>{t('rotateEffect')}</p>
          <div className="flex flex-wrap gap-2">
            <button type="button" disabled={action.busy} className={PRIMARY_BUTTON} onClick={() => rotate(24)}>
              {t('rotateOverlap')}
            </button>
            <button type="button" disabled={action.busy} className={DANGER_OUTLINE_BUTTON} onClick={() => rotate(0)}>
              {t('rotateNow')}
            </button>
            <button type="button" disabled={action.busy} className={SECONDARY_BUTTON} onClick={() => setChoosing(false)}>
              {t('no')}
            </button>
          </div>
        </div>
      ) : null}
      {rotated ? <ShownSecret heading={t('rotated')} secret={rotated} onDone={() => setRotated(null)} /> : null}
      <ActionError message={action.error} />
    </div>
  );
}

/** A row's actions: send a test, disable or enable, remove (after a confirmation). */
export function WebhookEndpointActions({ endpointId, url, enabled }: { endpointId: string; url: string; enabled: boolean }) {
  const t = useTranslations('developers.webhookActions');
  const action = useConsoleAction({ STATE_CONFLICT: t('disabledNow') });
  const [confirming, setConfirming] = useState(false);
  const [testSent, setTestSent] = useState<string | null>(null);
  const webhooks = consoleClient.console.webhooks;
  return (
    <div className="min-w-56 space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        {enabled ? (
          <button
            type="button"
            aria-label={t('testOf', { url })}
            disabled={action.busy}
            className={SECONDARY_BUTTON}
            onClick={() => {
              setTestSent(null);
              action.run(
                () => webhooks.sendTest.mutate({ id: endpointId }),
                (sent) => setTestSent(sent.testId),
              );
            }}
          >
            {t('test')}
          </button>
        ) : null}
        <button
          type="button"
          aria-label={enabled ? t('disableOf', { url }) : t('enableOf', { url })}
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          onClick={() => {
            setTestSent(null);
            action.run(() => webhooks.update.mutate({ id: endpointId, enabled: !enabled }));
          }}
        >
          {enabled ? t('disable') : t('enable')}
        </button>
        <button
          type="button"
          aria-label={t('removeOf', { url })}
          disabled={action.busy || confirming}
          className={DANGER_OUTLINE_BUTTON}
          onClick={() => setConfirming(true)}
        >
          {t('remove')}
        </button>
      </div>
      {confirming ? (
        <Confirm
          id={`confirm-remove-${endpointId}`}
          title={t('confirmRemove', { url })}
          body={t('removeEffect')}
          yes={t('yesRemove')}
          no={t('no')}
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
      <RotateSecret endpointId={endpointId} url={url} />
      {testSent ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-900" data-testid="webhook-test-sent">
          {t('testSent', { id: testSent })}
        </p>
      ) : null}
      <ActionError message={action.error} />
    </div>
  );
}
