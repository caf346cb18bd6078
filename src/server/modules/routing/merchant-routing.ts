import type { Db, Tx } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import type { PaymentMethod } from '@/server/core/domain/states';
import {
  DEFAULT_RETRY_POLICY,
  defaultRoutes,
  ruleRoutes,
  tryRule,
  validateRule,
  type PaymentFacts,
  type RetryPolicy,
  type Route,
} from '@/server/core/orchestration';
import type { ThreeDsSetting } from '@/server/core/three-ds/decision';
import { forgetRoutingConfig } from './routing-config';
import { merchantInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';
import { accountFactsOf, merchantConnectorFacts } from '@/server/modules/processors/connectors';
import { CAPTURABLE_METHODS, captureModeOf, type CaptureMode, type CaptureModes } from '@/server/core/domain/money-movements';
import { forgetMerchant } from '@/server/modules/merchants/merchant-cache';

// A merchant's routing for one method (docs/ORCHESTRATION.md 2-3): the published rule, the draft
// being edited, the retry policy. A draft is validated when saved (each problem an error on its
// field), tried against the merchant's latest payments, then published, which retires the
// version before it. The console and the CLI both call these.

export type RuleView = { version: number; routes: Route[]; createdBy: string; createdAt: string; publishedAt: string | null };

export type RoutingView = {
  merchantCode: string;
  method: PaymentMethod;
  published: RuleView | null;
  draft: RuleView | null;
  /** What applies without a published rule. */
  platformDefault: Route[];
  policy: RetryPolicy;
  /** The merchant's 3-D Secure setting (CARD; docs/ORCHESTRATION.md 5), the amount in cents as text. */
  threeDs: { mode: ThreeDsSetting['mode']; overAmount: string | null };
  /** Whether the method's payments are captured later, and the window before an uncaptured one is voided (days). */
  capture: { mode: CaptureMode; windowDays: number; capturable: boolean };
  /** The merchant's own processor accounts that carry the method, which its routes may name. */
  accounts: { connectorId: string; name: string; enabled: boolean }[];
};

const ruleSelect = { version: true, routes: true, createdBy: true, createdAt: true, publishedAt: true } as const;

function ruleView(rule: {
  version: number;
  routes: unknown;
  createdBy: string;
  createdAt: Date;
  publishedAt: Date | null;
}): RuleView {
  return {
    version: rule.version,
    routes: ruleRoutes.parse(rule.routes),
    createdBy: rule.createdBy,
    createdAt: rule.createdAt.toISOString(),
    publishedAt: rule.publishedAt?.toISOString() ?? null,
  };
}

export async function routingView(
  prisma: Db,
  scope: MerchantScope,
  merchantCode: string | undefined,
  method: PaymentMethod,
): Promise<RoutingView> {
  const merchant = await merchantInScope(prisma, scope, merchantCode);
  const [published, draft, policy, threeDs, accounts] = await Promise.all([
    prisma.routingRule.findFirst({ where: { merchantId: merchant.id, method, status: 'PUBLISHED' }, select: ruleSelect }),
    prisma.routingRule.findFirst({ where: { merchantId: merchant.id, method, status: 'DRAFT' }, select: ruleSelect }),
    prisma.paymentPolicy.findUnique({ where: { merchantId_method: { merchantId: merchant.id, method } } }),
    prisma.merchant.findUniqueOrThrow({
      where: { id: merchant.id },
      select: { threeDsMode: true, threeDsOverAmount: true, captureModes: true, captureWindowDays: true },
    }),
    prisma.processorAccount.findMany({
      where: { merchantId: merchant.id, methods: { has: method } },
      select: { connectorId: true, name: true, enabled: true },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  return {
    merchantCode: merchant.code,
    method,
    published: published && ruleView(published),
    draft: draft && ruleView(draft),
    platformDefault: defaultRoutes(method),
    policy: policy
      ? { maxAttempts: policy.maxAttempts, budgetMs: policy.budgetMs, retrySoftDeclines: policy.retrySoftDeclines }
      : DEFAULT_RETRY_POLICY,
    threeDs: { mode: threeDs.threeDsMode, overAmount: threeDs.threeDsOverAmount?.toString() ?? null },
    capture: {
      mode: captureModeOf(method, undefined, threeDs.captureModes as CaptureModes),
      windowDays: threeDs.captureWindowDays,
      capturable: CAPTURABLE_METHODS.includes(method),
    },
    accounts,
  };
}

/** The connectors a merchant's rule may name: the platform's and the merchant's own processor accounts. */
async function connectorsOf(db: Db | Tx, merchantId: string) {
  return merchantConnectorFacts(db, await accountFactsOf(db, merchantId));
}

/** Saves `routes` as the method's draft (a new version, or the draft being edited); refused whole with an error per field. */
export async function saveDraft(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; method: PaymentMethod; routes: unknown },
  actor: string,
): Promise<RoutingView> {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  const checked = validateRule(input.routes, input.method, await connectorsOf(prisma, merchant.id));
  if (!checked.ok) {
    throw new AppError('VALIDATION', 'the rule cannot be saved: see each field', {
      errors: checked.errors.map((error) => ({ ...error, field: `routes${error.field.replace(/^routes/, '')}` })),
    });
  }
  await prisma.$transaction(async (tx) => {
    // One draft per merchant and method (a partial unique index); its version follows the newest.
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchant.id}::uuid FOR UPDATE`;
    const draft = await tx.routingRule.findFirst({ where: { merchantId: merchant.id, method: input.method, status: 'DRAFT' } });
    if (draft) {
      await tx.routingRule.update({
        where: { id: draft.id },
        data: { routes: checked.routes, createdBy: actor, createdAt: new Date() },
      });
      return;
    }
    const newest = await tx.routingRule.aggregate({
      where: { merchantId: merchant.id, method: input.method },
      _max: { version: true },
    });
    await tx.routingRule.create({
      data: {
        merchantId: merchant.id,
        method: input.method,
        version: (newest._max.version ?? 0) + 1,
        status: 'DRAFT',
        routes: checked.routes,
        createdBy: actor,
      },
    });
  });
  return routingView(prisma, scope, merchant.code, input.method);
}

/** Publishes the draft: it routes the next payment of this instance, and of every other within a second. */
export async function publishDraft(prisma: Db, scope: MerchantScope, input: { merchantCode?: string; method: PaymentMethod }) {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchant.id}::uuid FOR UPDATE`;
    const draft = await tx.routingRule.findFirst({ where: { merchantId: merchant.id, method: input.method, status: 'DRAFT' } });
    if (!draft) throw new AppError('STATE_CONFLICT', 'there is no draft to publish');
    // A connector disabled since the draft was saved would route nothing: validate again.
    const checked = validateRule(draft.routes, input.method, await connectorsOf(tx, merchant.id));
    if (!checked.ok) {
      throw new AppError('VALIDATION', 'the draft is no longer valid: save it again', {
        errors: checked.errors.map((error) => ({ ...error, field: `routes${error.field.replace(/^routes/, '')}` })),
      });
    }
    await tx.routingRule.updateMany({
      where: { merchantId: merchant.id, method: input.method, status: 'PUBLISHED' },
      data: { status: 'RETIRED' },
    });
    await tx.routingRule.update({ where: { id: draft.id }, data: { status: 'PUBLISHED', publishedAt: new Date() } });
  });
  forgetRoutingConfig(merchant.id, input.method);
  return routingView(prisma, scope, merchant.code, input.method);
}

export async function discardDraft(prisma: Db, scope: MerchantScope, input: { merchantCode?: string; method: PaymentMethod }) {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  await prisma.routingRule.deleteMany({ where: { merchantId: merchant.id, method: input.method, status: 'DRAFT' } });
  return routingView(prisma, scope, merchant.code, input.method);
}

const TRIED_PAYMENTS = 1_000;

/** How the draft would have routed the merchant's latest 1,000 payments of the method: how many would go where. */
export async function tryDraft(prisma: Db, scope: MerchantScope, input: { merchantCode?: string; method: PaymentMethod }) {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  const draft = await prisma.routingRule.findFirst({ where: { merchantId: merchant.id, method: input.method, status: 'DRAFT' } });
  if (!draft) throw new AppError('STATE_CONFLICT', 'there is no draft to try');
  const rows = await prisma.transaction.findMany({
    where: { merchantId: merchant.id, method: input.method, attempt: 1 },
    orderBy: { createdAt: 'desc' },
    take: TRIED_PAYMENTS,
    select: {
      amount: true,
      currency: true,
      cardBrand: true,
      cardBin: true,
      cardType: true,
      cardCountry: true,
      methodDetails: true,
      captureStatus: true,
      operation: { select: { merchantOperationNumber: true } },
    },
  });
  const payments: PaymentFacts[] = rows.map((row) => ({
    method: input.method,
    amount: row.amount,
    currency: row.currency,
    brand: row.cardBrand,
    bin: row.cardBin,
    cardType: row.cardType,
    cardCountry: row.cardCountry,
    instalments: Number(
      (row.methodDetails as { installments?: { installment_number?: string } } | null)?.installments?.installment_number ?? '1',
    ),
    captureLater: row.captureStatus !== null,
    stableKey: `${merchant.code}:${row.operation.merchantOperationNumber}`,
  }));
  return {
    version: draft.version,
    ...tryRule({
      routes: ruleRoutes.parse(draft.routes),
      payments,
      connectors: await connectorsOf(prisma, merchant.id),
      platformDefault: false,
    }),
  };
}

export async function updatePolicy(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; method: PaymentMethod } & RetryPolicy,
): Promise<RoutingView> {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  const policy = { maxAttempts: input.maxAttempts, budgetMs: input.budgetMs, retrySoftDeclines: input.retrySoftDeclines };
  await prisma.paymentPolicy.upsert({
    where: { merchantId_method: { merchantId: merchant.id, method: input.method } },
    create: { merchantId: merchant.id, method: input.method, ...policy },
    update: policy,
  });
  forgetRoutingConfig(merchant.id, input.method);
  return routingView(prisma, scope, merchant.code, input.method);
}

/**
 * Whether a method's payments are captured later (MANUAL) or with their authorization, and the
 * merchant's window (days) before an uncaptured authorization is voided. Only cards are captured later.
 */
export async function updateCapture(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; method: PaymentMethod; mode: CaptureMode; windowDays?: number },
): Promise<RoutingView> {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  if (!CAPTURABLE_METHODS.includes(input.method) && input.mode === 'MANUAL') {
    throw new AppError('METHOD_RULE', `${input.method} payments are captured when the payer pays: only CARD is captured later`);
  }
  await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ capture_modes: CaptureModes }[]>`
      SELECT capture_modes FROM merchants WHERE id = ${merchant.id}::uuid FOR UPDATE`;
    const modes: CaptureModes = { ...row!.capture_modes, [input.method]: input.mode };
    if (input.mode === 'AUTOMATIC') delete modes[input.method];
    await tx.merchant.update({
      where: { id: merchant.id },
      data: { captureModes: modes, ...(input.windowDays === undefined ? {} : { captureWindowDays: input.windowDays }) },
    });
  });
  forgetMerchant(merchant.code);
  return routingView(prisma, scope, merchant.code, input.method);
}

/** When the merchant's card payments authenticate with 3-D Secure: NEVER, ALWAYS, OVER an amount or WHEN_REQUIRED. */
export async function updateThreeDs(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; setting: ThreeDsSetting },
): Promise<RoutingView> {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  await prisma.merchant.update({
    where: { id: merchant.id },
    data: { threeDsMode: input.setting.mode, threeDsOverAmount: input.setting.overAmount },
  });
  forgetRoutingConfig(merchant.id, 'CARD');
  return routingView(prisma, scope, merchant.code, 'CARD');
}
