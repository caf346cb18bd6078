import { getTranslations } from 'next-intl/server';
import { MethodName } from '../../console-ui/states';
import type { Metadata } from 'next';
import Link from 'next/link';
import { consoleCaller, requireConsoleSession } from '@/server/api/console-caller';
import { can } from '@/server/modules/access/policy';
import { PAYMENT_METHODS, type PaymentMethod } from '@/server/core/domain/states';
import { PolicyForm } from './policy-form';
import { RuleEditor } from './rule-editor';
import { RoutesTable } from './routes-table';
import { ThreeDsForm } from './three-ds-form';
import { CaptureForm } from './capture-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('routing.page'))('meta') };
}

type Search = { merchant?: string; method?: string };

export default async function RoutingPage({ searchParams }: { searchParams: Promise<Search> }) {
  const [session, params] = await Promise.all([requireConsoleSession(), searchParams]);
  const t = await getTranslations('routing.page');
  const method: PaymentMethod = PAYMENT_METHODS.includes(params.method as PaymentMethod)
    ? (params.method as PaymentMethod)
    : 'CARD';
  const platformStaff = can(session.role, 'merchants:all');
  const merchantCode = platformStaff ? params.merchant : undefined;
  const header = (
    <div>
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <p className="text-slate-600">{t('intro')}</p>
    </div>
  );
  const merchantForm = platformStaff ? (
    <form method="get" className="flex items-end gap-2 text-sm">
      <label className="block">
        {t('merchant')}
        <input
          name="merchant"
          defaultValue={merchantCode ?? ''}
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      <input type="hidden" name="method" value={method} />
      <button className="rounded-md bg-slate-800 px-3 py-1.5 text-white">{t('go')}</button>
    </form>
  ) : null;
  if (platformStaff && !merchantCode) {
    return (
      <div className="space-y-4">
        {header}
        {merchantForm}
        <p className="text-slate-600">{t('choose')}</p>
      </div>
    );
  }
  const caller = await consoleCaller(session);
  const [routing, connectors] = await Promise.all([
    caller.console.routing.routing({ merchantCode, method }),
    caller.console.processors.connectors(),
  ]);
  const canEdit = can(session.role, 'merchant:act');
  const query = (each: PaymentMethod) =>
    `/routing?${new URLSearchParams({ ...(merchantCode ? { merchant: merchantCode } : {}), method: each })}`;
  return (
    <div className="space-y-6">
      {header}
      {merchantForm}
      <nav className="flex flex-wrap gap-2 text-sm" aria-label={t('methods')}>
        {PAYMENT_METHODS.map((each) => (
          <Link
            key={each}
            href={query(each)}
            aria-current={each === method ? 'page' : undefined}
            className={`rounded px-2 py-1 ${each === method ? 'bg-slate-800 text-white' : 'hover:bg-slate-100'}`}
          >
            <MethodName method={each} />
          </Link>
        ))}
      </nav>
      {canEdit ? null : <p className="text-sm text-slate-600">{t('readOnly')}</p>}

      <section className="space-y-2" aria-labelledby="published">
        <h2 id="published" className="text-lg font-semibold">
          {routing.published ? t('published', { version: routing.published.version }) : t('platformDefault')}
        </h2>
        {routing.published ? null : <p className="text-sm text-slate-600">{t('noPublished')}</p>}
        <RoutesTable routes={routing.published?.routes ?? routing.platformDefault} />
      </section>

      <section className="space-y-2" aria-labelledby="draft">
        <h2 id="draft" className="text-lg font-semibold">
          {t('draft')}
          {routing.draft ? ` (v${routing.draft.version})` : ''}
        </h2>
        <RuleEditor
          // A new editor once a rule is published; a saved draft keeps the same one, with its notices.
          key={`${routing.merchantCode}-${method}-${routing.published?.version ?? 'none'}`}
          merchantCode={routing.merchantCode}
          method={method}
          initial={routing.draft?.routes ?? routing.published?.routes ?? routing.platformDefault}
          hasDraft={routing.draft !== null}
          connectors={[
            ...connectors.filter((connector) => connector.methods.includes(method)).map((connector) => connector.id),
            ...routing.accounts.map((account) => account.connectorId),
          ]}
          canEdit={canEdit}
        />
      </section>

      <PolicyForm merchantCode={routing.merchantCode} method={method} policy={routing.policy} canEdit={canEdit} />
      {method === 'CARD' ? <ThreeDsForm merchantCode={routing.merchantCode} setting={routing.threeDs} canEdit={canEdit} /> : null}
      {routing.capture.capturable ? (
        <CaptureForm merchantCode={routing.merchantCode} setting={routing.capture} canEdit={canEdit} />
      ) : null}
    </div>
  );
}
