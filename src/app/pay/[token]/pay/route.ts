import { db } from '@/server/platform/db/client';
import { CUOTEALO_INSTALLMENTS, payPayment } from '@/server/modules/charges/payer/payer-actions';
import { handlePayerAction } from '../../ui/payer-action-route';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  return handlePayerAction(request, token, async (form) => {
    const chosen = Number(form.get('installments'));
    const installments = (CUOTEALO_INSTALLMENTS as readonly number[]).includes(chosen) ? chosen : undefined;
    return payPayment(await db(), token, { installments });
  });
}
