import { moneyStory, type MoneyFacts } from '@/server/core/domain/money-movements';

/** A payment's figures (moneyStory) as the console's procedures answer them: cents as text. */
export function moneyView(payment: MoneyFacts) {
  const story = moneyStory(payment);
  return {
    authorized: story.authorized.toString(),
    captured: story.captured?.toString() ?? null,
    refunded: story.refunded.toString(),
    refundInProcess: story.refundInProcess.toString(),
    refundable: story.refundable.toString(),
  };
}

export type MoneyView = ReturnType<typeof moneyView>;

/** What a payment's RESOLVED refunds gave back. */
export function resolvedSum(refunds: { refundAmount: bigint; state: string }[]): bigint {
  return refunds.filter((refund) => refund.state === 'RESOLVED').reduce((sum, refund) => sum + refund.refundAmount, 0n);
}
