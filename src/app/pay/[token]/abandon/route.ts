import { db } from '@/server/platform/db/client';
import { abandonPayment } from '@/server/modules/charges/payer/payer-actions';
import { handlePayerAction } from '../../ui/payer-action-route';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  return handlePayerAction(request, token, async () => abandonPayment(await db(), token));
}
