import { getFormatter, getTranslations } from 'next-intl/server';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { toAppError } from '@/server/api/errors/to-app-error';
import { can } from '@/server/modules/access/policy';
import { BackLink } from '../../../console-ui/back-link';
import { Field } from '../../../console-ui/field';
import { businessTime, money } from '../../../console-ui/format';
import { StateBadge } from '../../../console-ui/states';
import { DataTable } from '../../../console-ui/table';
import { CardUse } from '../../../console-ui/card-use';
import { RemoveCard } from './remove-card';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('customers.detail'))('meta') };
}

type Props = { params: Promise<{ customerId: string }> };

/** A customer, its saved cards (what each rests on, who holds a token, whether an NTI is kept) and their charges. */
export default async function CustomerPage({ params }: Props) {
  const { customerId } = await params;
  const session = await requireConsoleSession();
  const t = await getTranslations('customers.detail');
  const customers = await getTranslations('customers');
  const format = await getFormatter();
  const caller = await consoleCaller(session);
  const customer = await caller.console.customerDetail({ customerId }).catch((error: unknown) => {
    if (toAppError(error).kind === 'NOT_FOUND') notFound();
    throw error;
  });
  const acts = can(session.role, 'merchant:act');
  const when = (date: Date) => businessTime(format, date.toISOString());
  return (
    <div className="space-y-6">
      <BackLink href="/customers">{t('back')}</BackLink>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold break-all">{customer.merchantCustomerId}</h1>
        <p className="text-slate-600">
          {[customer.name, customer.email].filter(Boolean).join(' · ')}
          {can(session.role, 'merchants:all') ? ` · ${customer.merchantName} (${customer.merchantCode})` : ''}
        </p>
        <p className="font-mono text-xs break-all text-slate-500" data-testid="customer-id">
          {customer.customerId}
        </p>
      </header>

      <section aria-labelledby="cards" className="space-y-3">
        <h2 id="cards" className="text-lg font-semibold">
          {t('cards')}
        </h2>
        {customer.cards.length === 0 ? <p className="text-slate-600">{t('noCards')}</p> : null}
        <ul className="grid gap-3 lg:grid-cols-2">
          {customer.cards.map((card) => {
            const label = `${card.brand} ${card.bin}•••${card.last4}`;
            return (
              <li
                key={card.cardId}
                className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
                data-testid="saved-card"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">{label}</span>
                  <span
                    className={`rounded px-2 py-0.5 text-xs font-medium ${card.status === 'ACTIVE' ? 'bg-emerald-100 text-emerald-900' : 'bg-slate-200 text-slate-700'}`}
                    data-testid="card-status"
                  >
                    {t(`status.${card.status}`)}
                  </span>
                </div>
                <dl className="space-y-1 text-sm">
                  <Field label={t('expiry')}>{`${card.expiryDate.slice(0, 2)}/${card.expiryDate.slice(2)}`}</Field>
                  <Field label={t('reason')}>{customers(`reasons.${card.reason}`)}</Field>
                  <Field label={t('consent')}>
                    {t('consentText', { date: when(card.consentAcceptedAt), terms: card.termsVersion })}
                  </Field>
                  {card.maxAmount ? <Field label={t('maxAmount')}>{money(format, card.maxAmount, card.currency)}</Field> : null}
                  {card.installments !== null ? (
                    <Field label={t('installments')}>
                      {t('installmentsText', { used: card.mitCount, total: card.installments })}
                    </Field>
                  ) : null}
                  <Field label={t('savedBy')}>
                    {card.savedByTransactionId ? (
                      <Link href={`/operations/${card.savedByTransactionId}`} className="text-blue-700 underline">
                        {t('savedByCharge')}
                      </Link>
                    ) : (
                      t('savedByVerification')
                    )}
                  </Field>
                  <Field label={t('tokens')}>{card.tokensAt.length ? card.tokensAt.join(', ') : t('noTokens')}</Field>
                  <Field label={t('nti')}>{card.ntiKept ? t('ntiKept') : t('ntiMissing')}</Field>
                  <Field label={t('saved')}>{when(card.createdAt)}</Field>
                  {card.removedAt ? <Field label={t('removed')}>{when(card.removedAt)}</Field> : null}
                </dl>
                {acts ? (
                  <RemoveCard
                    customerId={customer.customerId}
                    cardId={card.cardId}
                    card={label}
                    active={card.status === 'ACTIVE'}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="charges" className="space-y-3">
        <h2 id="charges" className="text-lg font-semibold">
          {t('charges')}
        </h2>
        {customer.charges.length === 0 ? (
          <p className="text-slate-600">{t('noCharges')}</p>
        ) : (
          <DataTable
            caption={t('charges')}
            testId="customer-charges"
            columns={[t('operation'), t('use'), t('state'), { label: t('amount'), right: true }, t('date')]}
          >
            {customer.charges.map((charge) => (
              <tr key={charge.transactionId} className="border-t border-slate-100 align-top" data-testid="customer-charge">
                <td className="px-3 py-2">
                  <Link href={`/operations/${charge.transactionId}`} className="font-mono text-blue-700 underline">
                    {charge.merchantOperationNumber}
                  </Link>
                </td>
                <td className="px-3 py-2">{charge.use ? <CardUse use={charge.use} /> : null}</td>
                <td className="px-3 py-2">
                  <StateBadge state={charge.state} />
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap">{money(format, charge.amount, charge.currency)}</td>
                <td className="px-3 py-2 whitespace-nowrap">{when(charge.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}
