import { db } from '@/server/platform/db/client';
import { cancelChallenge } from '@/server/modules/charges/payer/challenge';
import { handlePayerAction } from '../../../ui/payer-action-route';

export const dynamic = 'force-dynamic';

// The challenge page's "cancel and go back": CANCELADO and the card out of the vault, then to
// the merchant's redirect_url with the state, like the other payer pages' abandon.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  return handlePayerAction(request, token, async () => cancelChallenge(await db(), token));
}
