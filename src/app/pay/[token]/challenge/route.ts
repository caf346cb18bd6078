import { db } from '@/server/platform/db/client';
import { logError } from '@/server/platform/log';
import { completeChallenge } from '@/server/modules/charges/attempts/complete-challenge';
import { submitChallengeCode } from '@/server/modules/charges/payer/challenge';
import { payerPageUrl } from '@/server/modules/charges/payer/payer-url';
import { payerLang } from '../../ui/messages';

export const dynamic = 'force-dynamic';

// The challenge page's code (docs/ORCHESTRATION.md 5): once the payment has its outcome, 303 to
// the merchant's redirect_url with the state (or to the page, which shows the outcome, without
// one); otherwise back to the page with what to tell the payer. The code itself never leaves
// this handler: it is not logged, and no redirect carries it.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const lang = payerLang(new URL(request.url).searchParams.get('lang') ?? undefined);
  const page = (status?: string) => payerPageUrl(token, status ? { lang, status } : { lang });
  const form = await request.formData().catch(() => new FormData());
  const code = form.get('code');
  const prisma = await db();
  try {
    const outcome = await submitChallengeCode(prisma, token, typeof code === 'string' ? code : '', (transactionId, result) =>
      completeChallenge(prisma, transactionId, result),
    );
    switch (outcome.kind) {
      case 'completed':
        return Response.redirect(outcome.redirectUrl ?? page(), 303);
      case 'retry':
        return Response.redirect(page('wrong'), 303);
      case 'invalid_code':
        return Response.redirect(page('invalid'), 303);
      case 'unavailable':
        return Response.redirect(page('unavailable'), 303);
      default:
        return Response.redirect(page(), 303);
    }
  } catch (error) {
    // The payer may try again (the challenge is open again); the error names no card data.
    logError('3-D Secure challenge completion failed', error, { route: 'pay.challenge' });
    return Response.redirect(page('error'), 303);
  }
}
