import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { toAppError } from '@/server/api/errors/to-app-error';
import { BackLink } from '../../../console-ui/back-link';
import { Field } from '../../../console-ui/field';
import { CallbackEvents } from '../../../console-ui/callback-events';
import { businessTime, money, refundInstant, zoneName } from '../../../console-ui/format';
import { DetailLabel, MethodName, RefundType, StateBadge, StateReason } from '../../../console-ui/states';
import { businessZone } from '../../../console-ui/zone-server';
import { Timeline } from '../../../console-ui/timeline';
import { maskedMethodDetails } from './masked-details';
import { can } from '@/server/modules/access/policy';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('refunds.detail.page'))('meta') };
}

type Props = { params: Promise<{ refundId: string }> };

/** A titled part of the page; `boxed` ones sit on a white card. */
function Section({ id, title, boxed, children }: { id: string; title: string; boxed?: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={boxed ? 'space-y-2 rounded-lg border border-slate-200 bg-white p-4' : 'space-y-2'}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default async function RefundPage({ params }: Props) {
  const { refundId } = await params;
  const session = await requireConsoleSession();
  const t = await getTranslations('refunds.detail.page');
  const format = await getFormatter();
  const zone = businessZone();
  const caller = await consoleCaller(session);
  const detail = await caller.console.refundDetail({ refundId }).catch((error: unknown) => {
    // Another merchant's refund does not exist for this user; neither does a text that is no id.
    if (toAppError(error).kind === 'NOT_FOUND') notFound();
    throw error;
  });
  const { refund, transaction } = detail;
  const fields = refund.additional_fields;
  return (
    <div className="space-y-6">
      <BackLink href="/refunds">{t('back')}</BackLink>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <StateBadge state={refund.state} apiValue />
        <span className="font-mono text-xs break-all text-slate-500" data-testid="refund-id">
          {refund.refund_id}
        </span>
        <span className="ml-auto text-xl font-semibold">{money(format, refund.refund_amount, refund.currency)}</span>
      </header>

      <Section id="summary" title={t('summary')} boxed>
        <dl className="space-y-1 text-sm">
          <Field label={t('state')}>
            <StateBadge state={refund.state} /> <StateReason reason={refund.refund_reason} testId="refund-reason" />
          </Field>
          <Field label={t('type')}>
            <RefundType type={refund.type} />
          </Field>
          <Field label={t('amount')}>{money(format, refund.refund_amount, refund.currency)}</Field>
          <Field label={t('registered', { zone: zoneName(zone) })}>
            <time dateTime={detail.createdAt} title={`UTC ${detail.createdAt}`}>
              {businessTime(format, detail.createdAt)}
            </time>
          </Field>
          {can(session.role, 'merchants:all') ? (
            <Field label={t('merchant')}>
              {detail.merchant.name} ({detail.merchant.code})
            </Field>
          ) : null}
          <Field label={t('canal')}>{fields.canal || '—'}</Field>
          <Field label={t('reason')}>
            <span data-testid="additional-reason">{fields.reason || '—'}</span>
          </Field>
          <Field label={t('description')}>
            <span data-testid="additional-description" className="whitespace-pre-wrap">
              {fields.description || '—'}
            </span>
          </Field>
        </dl>
      </Section>

      <Section id="lifecycle" title={t('lifecycle', { zone: zoneName(zone) })}>
        <Timeline
          label={t('lifecycleList')}
          entries={refund.lifecycle.map((entry) => ({ state: entry.state, iso: refundInstant(entry.date) }))}
        />
      </Section>

      <Section id="transaction" title={t('transaction')} boxed>
        <dl className="space-y-1 text-sm">
          <Field label={t('operation')}>
            <Link href={`/operations/${transaction.transaction_id}`} className="font-mono text-blue-800 underline">
              {refund.merchant_operation_number}
            </Link>
          </Field>
          <Field label={t('transactionId')}>
            <span className="font-mono break-all">{transaction.transaction_id}</span>
          </Field>
          <Field label={t('method')}>
            <MethodName method={transaction.payment_method.method_name} />
          </Field>
          {maskedMethodDetails(transaction.payment_method.method_details).map(([key, value]) => (
            <Field key={key} label={<DetailLabel field={key} />}>
              <span className="font-mono">{value}</span>
            </Field>
          ))}
          <Field label={t('transactionState')}>
            <StateBadge state={transaction.state} apiValue />
          </Field>
          <Field label={t('transactionAmount')}>{money(format, refund.transaction_amount, refund.currency)}</Field>
        </dl>
      </Section>

      <Section id="callbacks" title={t('callbacks')}>
        <CallbackEvents events={detail.events} />
      </Section>
    </div>
  );
}
