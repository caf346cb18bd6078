import type { Metadata } from 'next';
import { db } from '@/server/platform/db/client';
import { formatMoney, isSupportedCurrency } from '@/server/core/domain/money';
import { findPayerTransaction, merchantReturnUrl, type PayerTransaction } from '@/server/modules/charges/payer/payer-transaction';
import { challengeView } from '@/server/modules/charges/payer/challenge';
import { CUOTEALO_INSTALLMENTS } from '@/server/modules/charges/payer/payer-actions';
import { CopyButton } from '../ui/copy-button';
import { Countdown } from '../ui/countdown';
import { ChallengePage, challengeNotice } from '../ui/challenge';
import { MESSAGES, payerLang, type PayerLang, type PayerMessages } from '../ui/messages';
import { Shell } from '../ui/shell';
import { SubmitOnce } from '../ui/submit-once';

export const dynamic = 'force-dynamic';
type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const lang = payerLang((await searchParams).lang);
  return { title: MESSAGES[lang].pageTitle, robots: { index: false, follow: false } };
}

function Summary({ payment, text, lang }: { payment: PayerTransaction; text: PayerMessages; lang: PayerLang }) {
  const amount = isSupportedCurrency(payment.currency)
    ? formatMoney(payment.amount, payment.currency, lang === 'es' ? 'es-PE' : 'en-US')
    : payment.amount.toString();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-slate-600">{text.merchant}</dt>
      <dd className="text-right font-medium" data-testid="merchant">
        {payment.merchantName}
      </dd>
      {payment.merchantSupportEmail ? (
        <>
          <dt className="text-slate-600">{text.support}</dt>
          <dd className="text-right break-all">
            <a className="text-blue-800 underline" href={`mailto:${payment.merchantSupportEmail}`} data-testid="merchant-support">
              {payment.merchantSupportEmail}
            </a>
          </dd>
        </>
      ) : null}
      <dt className="text-slate-600">{text.order}</dt>
      <dd className="text-right font-mono text-sm">{payment.merchantOperationNumber}</dd>
      <dt className="text-slate-600">{text.method}</dt>
      <dd className="text-right">{text.methods[payment.method]}</dd>
      <dt className="text-slate-600">{text.amount}</dt>
      <dd className="text-right text-2xl font-semibold" data-testid="amount">
        {amount}
      </dd>
    </dl>
  );
}

function Outcome({ payment, text }: { payment: PayerTransaction; text: PayerMessages }) {
  // Paid stays paid after settlement: the payer sees no difference between AUTORIZADO and LIQUIDADO.
  const key =
    payment.state === 'AUTORIZADO' || payment.state === 'LIQUIDADO'
      ? 'PAID'
      : payment.state === 'CANCELADO' || payment.state === 'EXPIRADO'
        ? payment.state
        : 'other';
  const back = merchantReturnUrl(payment, payment.state);
  return (
    <section
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="outcome"
      data-state={payment.state}
    >
      <h1 className="text-2xl font-semibold">{text.stateTitle[key]}</h1>
      <p className="mt-2 text-slate-700">{text.stateBody[key]}</p>
      {back ? (
        <a className="mt-4 inline-block text-blue-800 underline" href={back}>
          {text.backToMerchant}
        </a>
      ) : null}
    </section>
  );
}

function Actions({ payment, text, lang }: { payment: PayerTransaction; text: PayerMessages; lang: PayerLang }) {
  const base = `/pay/${encodeURIComponent(payment.token)}`;
  const payLabel = { BANK_TRANSFER: text.payBank, CUOTEALO: text.payCuotealo, PAGOEFECTIVO: text.payCash, QR: text.payQr }[
    payment.method
  ];
  const sandbox = payment.method === 'PAGOEFECTIVO' || payment.method === 'QR';
  return (
    <section className="space-y-3">
      {sandbox ? <p className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-900">{text.sandbox}</p> : null}
      <SubmitOnce action={`${base}/pay?lang=${lang}`} label={payLabel} tone="primary">
        {payment.method === 'CUOTEALO' ? (
          <label className="block text-slate-700">
            {text.installments}
            <select
              name="installments"
              defaultValue="3"
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
            >
              {CUOTEALO_INSTALLMENTS.map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </SubmitOnce>
      <SubmitOnce action={`${base}/abandon?lang=${lang}`} label={text.abandon} tone="secondary" />
    </section>
  );
}

export default async function PayerPage({ params, searchParams }: Props) {
  const { token } = await params;
  const query = await searchParams;
  const lang = payerLang(query.lang);
  const text = MESSAGES[lang];
  const prisma = await db();
  // A CARD payment's page is its 3-D Secure challenge (docs/ORCHESTRATION.md 5).
  const challenge = await challengeView(prisma, token);
  if (challenge) return <ChallengePage view={challenge} lang={lang} notice={challengeNotice(query.status)} />;
  const payment = await findPayerTransaction(prisma, token);
  if (!payment) {
    return (
      <Shell lang={lang} token={token}>
        <section className="rounded-xl border border-slate-200 bg-white p-5">
          <h1 className="text-xl font-semibold">{text.notFound}</h1>
          <p className="mt-2 text-slate-700">{text.notFoundBody}</p>
        </section>
      </Shell>
    );
  }
  const open = payment.state === 'PENDIENTE' && payment.expiresAt !== null && payment.expiresAt > new Date();
  return (
    <Shell lang={lang} token={token}>
      {open ? <h1 className="text-2xl font-semibold">{text.title}</h1> : null}
      {open ? null : (
        <Outcome payment={payment.state === 'PENDIENTE' ? { ...payment, state: 'EXPIRADO' } : payment} text={text} />
      )}
      <Summary payment={payment} text={text} lang={lang} />
      {open ? (
        <>
          <Countdown
            expiresAt={payment.expiresAt!.toISOString()}
            renderedAt={new Date().toISOString()}
            label={text.expiresIn}
            expiredLabel={text.expired}
          />
          {payment.method === 'PAGOEFECTIVO' && payment.cip ? (
            <section className="rounded-xl border border-slate-200 bg-white p-4 text-center">
              <h2 className="text-slate-600">{text.cipTitle}</h2>
              <p className="my-2 font-mono text-4xl font-bold tracking-widest select-all" data-testid="cip">
                {payment.cip}
              </p>
              <CopyButton value={payment.cip} label={text.copy} copiedLabel={text.copied} manualLabel={text.copyManually} />
              <p className="mt-3 text-left text-sm text-slate-700">{text.howToPay}</p>
            </section>
          ) : null}
          {payment.method === 'QR' && payment.qrImage ? (
            <section className="rounded-xl border border-slate-200 bg-white p-4 text-center">
              {/* A data URI the service made: next/image adds nothing here. */}
              <img src={payment.qrImage} alt={text.qrAlt} width={224} height={224} className="mx-auto" data-testid="qr" />
              <p className="mt-2 text-sm text-slate-700">{text.qrHelp}</p>
            </section>
          ) : null}
          {payment.atProcessor ? (
            <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-800" data-testid="at-processor">
              {text.atProcessor}
            </p>
          ) : (
            <Actions payment={payment} text={text} lang={lang} />
          )}
        </>
      ) : null}
    </Shell>
  );
}
