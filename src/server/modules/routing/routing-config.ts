import type { Db } from '@/server/platform/db/client';
import { RecentReads } from '@/server/platform/cache/recent-reads';
import type { PaymentMethod } from '@/server/core/domain/states';
import { DEFAULT_RETRY_POLICY, ruleRoutes, type RetryPolicy, type Route } from '@/server/core/orchestration';
import type { AccountFacts } from '@/server/modules/processors/connectors';

// What routes one merchant's payments of one method (docs/ORCHESTRATION.md 2, 3, 5): its
// published rule (or none: the platform default), its own processor accounts, its retry policy
// and its 3-D Secure setting,
// read in one statement and kept per instance for a second, like the merchant itself; a change
// made through this instance applies at once (forgetRoutingConfig), other instances within 1 s.
export type RoutingConfig = {
  rule: { version: number; routes: Route[] } | null;
  /** The merchant's own processor accounts, which its routes may name. */
  accounts: AccountFacts[];
  policy: RetryPolicy;
  threeDs: { mode: 'NEVER' | 'ALWAYS' | 'OVER' | 'WHEN_REQUIRED'; overAmount: bigint | null };
};

const configs = new RecentReads<RoutingConfig>(1_000);

export function forgetRoutingConfig(merchantId: string, method: PaymentMethod): void {
  configs.forget(`${merchantId}:${method}`);
}

type Stored = {
  rule: { version: number; routes: unknown } | null;
  accounts: { connector_id: string; processor: string; methods: string[]; enabled: boolean }[] | null;
  policy: { max_attempts: number; budget_ms: number; retry_soft_declines: boolean } | null;
  three_ds_mode: RoutingConfig['threeDs']['mode'];
  three_ds_over_amount: bigint | null;
};

export function routingConfigOf(prisma: Db, merchantId: string, method: PaymentMethod): Promise<RoutingConfig> {
  return configs.get(`${merchantId}:${method}`, async () => {
    const [stored] = await prisma.$queryRaw<Stored[]>`
      SELECT
        (SELECT jsonb_build_object('version', r.version, 'routes', r.routes) FROM routing_rules r
          WHERE r.merchant_id = m.id AND r.method = ${method}::"PaymentMethod" AND r.status = 'PUBLISHED') AS rule,
        (SELECT jsonb_build_object('max_attempts', p.max_attempts, 'budget_ms', p.budget_ms,
                                   'retry_soft_declines', p.retry_soft_declines) FROM payment_policies p
          WHERE p.merchant_id = m.id AND p.method = ${method}::"PaymentMethod") AS policy,
        (SELECT jsonb_agg(jsonb_build_object('connector_id', a.connector_id, 'processor', a.processor,
                                             'methods', a.methods, 'enabled', a.enabled) ORDER BY a.created_at)
          FROM processor_accounts a WHERE a.merchant_id = m.id) AS accounts,
        m.three_ds_mode::text AS three_ds_mode, m.three_ds_over_amount
      FROM merchants m WHERE m.id = ${merchantId}::uuid`;
    if (!stored) throw new Error(`merchant ${merchantId} has no row`);
    return {
      // A published rule was validated when it was saved; parsing again only gives it its type.
      rule: stored.rule ? { version: stored.rule.version, routes: ruleRoutes.parse(stored.rule.routes) } : null,
      accounts: (stored.accounts ?? []).map((account) => ({
        connectorId: account.connector_id,
        processor: account.processor,
        methods: account.methods,
        enabled: account.enabled,
      })),
      policy: stored.policy
        ? {
            maxAttempts: stored.policy.max_attempts,
            budgetMs: stored.policy.budget_ms,
            retrySoftDeclines: stored.policy.retry_soft_declines,
          }
        : DEFAULT_RETRY_POLICY,
      threeDs: { mode: stored.three_ds_mode, overAmount: stored.three_ds_over_amount },
    };
  });
}
