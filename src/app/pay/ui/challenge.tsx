import { formatMoney, isSupportedCurrency } from '@/server/core/domain/money';
import type { ChallengeView } from '@/server/modules/charges/payer/challenge';
import { Countdown } from './countdown';
import { MESSAGES, type PayerLang, type PayerMessages } from './messages';
import { Shell } from './shell';
import { SubmitOnce } from './submit-once';

// The 3-D Secure challenge of a CARD payment at /pay/<token> (docs/ORCHESTRATION.md 5), in the
// other payer pages' frame, components and styles. The code posts to ./challenge, which answers
// with a redirect: back here with `status` (a wrong or malformed code, a failure), or to the
// merchant's redirect_url once the payment has its outcome.

export type ChallengeNotice = 'wrong' | 'invalid' | 'error' | 'unavailable' | null;

const NOTICES = new Set(['wrong', 'invalid', 'error', 'unavailable']);

export function challengeNotice(value: string | string[] | undefined): ChallengeNotice {
  return typeof value === 'string' && NOTICES.has(value) ? (value as ChallengeNotice) : null;
}

function Summary({ view, text, lang }: { view: ChallengeView; text: PayerMessages; lang: PayerLang }) {
  const amount = isSupportedCurrency(view.currency)
    ? formatMoney(view.amount, view.currency, lang === 'es' ? 'es-PE' : 'en-US')
    : view.amount.toString();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-slate-600">{text.merchant}</dt>
      <dd className="text-right font-medium" data-testid="merchant">
        {view.merchantName}
      </dd>
      {view.merchantSupportEmail ? (
        <>
          <dt className="text-slate-600">{text.support}</dt>
          <dd className="text-right break-all">
            <a className="text-blue-800 underline" href={`mailto:${view.merchantSupportEmail}`} data-testid="merchant-support">
              {view.merchantSupportEmail}
            </a>
          </dd>
        </>
      ) : null}
      <dt className="text-slate-600">{text.order}</dt>
      <dd className="text-right font-mono text-sm break-all">{view.merchantOperationNumber}</dd>
      <dt className="text-slate-600">{text.challenge.card}</dt>
      <dd className="text-right font-mono text-sm break-all" data-testid="masked-pan">
        {view.brand ? `${view.brand} ` : ''}
        {view.maskedPan}
      </dd>
      <dt className="text-slate-600">{text.amount}</dt>
      <dd className="text-right text-2xl font-semibold" data-testid="amount">
        {amount}
      </dd>
    </dl>
  );
}

function Outcome({ view, text }: { view: ChallengeView; text: PayerMessages }) {
  const [title, body] =
    view.state === 'AUTORIZADO' || view.state === 'LIQUIDADO'
      ? [text.stateTitle.PAID, text.stateBody.PAID]
      : view.state === 'DENEGADO'
        ? [text.challenge.declinedTitle, text.challenge.declinedBody]
        : view.state === 'CANCELADO' || view.state === 'EXPIRADO'
          ? [text.stateTitle[view.state], text.stateBody[view.state]]
          : [text.stateTitle.other, text.stateBody.other];
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="outcome" data-state={view.state}>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-slate-700">{body}</p>
      {view.returnUrl ? (
        <a className="mt-4 inline-block text-blue-800 underline" href={view.returnUrl}>
          {text.backToMerchant}
        </a>
      ) : null}
    </section>
  );
}

function noticeText(notice: ChallengeNotice, text: PayerMessages): string | null {
  switch (notice) {
    case 'wrong':
      return text.challenge.wrongCode;
    case 'invalid':
      return text.challenge.invalidCode;
    case 'error':
      return text.challenge.failed;
    case 'unavailable':
      return text.challenge.unavailable;
    default:
      return null;
  }
}

function CodeForm({
  view,
  text,
  lang,
  notice,
}: {
  view: ChallengeView;
  text: PayerMessages;
  lang: PayerLang;
  notice: ChallengeNotice;
}) {
  const base = `/pay/${encodeURIComponent(view.token)}/challenge`;
  const message = noticeText(notice, text);
  return (
    <section className="space-y-3">
      <p className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-900" data-testid="sandbox-hint">
        {text.challenge.sandboxHint}
      </p>
      {message ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
          data-testid="challenge-notice"
        >
          {message}
        </p>
      ) : null}
      <SubmitOnce action={`${base}?lang=${lang}`} label={text.challenge.confirm} tone="primary">
        <label className="block text-slate-700" htmlFor="challenge-code">
          {text.challenge.code}
        </label>
        <input
          id="challenge-code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          minLength={6}
          maxLength={6}
          required
          aria-describedby="challenge-code-help challenge-tries"
          aria-invalid={notice === 'wrong' || notice === 'invalid' ? true : undefined}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-3 text-center font-mono text-2xl tracking-[0.4em]"
          data-testid="challenge-code"
        />
        <p id="challenge-code-help" className="text-sm text-slate-700">
          {text.challenge.codeHelp}
        </p>
        <p id="challenge-tries" className="text-sm text-slate-700" data-testid="tries-left">
          {text.challenge.triesLeft(view.triesLeft)}
        </p>
      </SubmitOnce>
      <SubmitOnce action={`${base}/cancel?lang=${lang}`} label={text.abandon} tone="secondary" />
    </section>
  );
}

export function ChallengePage({ view, lang, notice }: { view: ChallengeView; lang: PayerLang; notice: ChallengeNotice }) {
  const text = MESSAGES[lang];
  const page = `/pay/${encodeURIComponent(view.token)}?lang=${lang}`;
  return (
    <Shell lang={lang} token={view.token}>
      {view.stage === 'open' || view.stage === 'processing' ? (
        <div>
          <h1 className="text-2xl font-semibold">{text.challenge.title}</h1>
          <p className="mt-1 text-slate-700">{text.challenge.intro}</p>
        </div>
      ) : (
        <Outcome view={view} text={text} />
      )}
      <Summary view={view} text={text} lang={lang} />
      {view.stage === 'open' && view.expiresAt ? (
        <Countdown
          expiresAt={view.expiresAt.toISOString()}
          renderedAt={new Date().toISOString()}
          label={text.expiresIn}
          expiredLabel={text.expired}
        />
      ) : null}
      {view.stage === 'open' ? <CodeForm view={view} text={text} lang={lang} notice={notice} /> : null}
      {view.stage === 'processing' ? (
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="challenge-processing">
          <p role="status" className="text-slate-700">
            {text.challenge.processing}
          </p>
          <a className="mt-4 inline-block text-blue-800 underline" href={page}>
            {text.challenge.refresh}
          </a>
        </section>
      ) : null}
    </Shell>
  );
}
