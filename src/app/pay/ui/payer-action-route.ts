import { db } from '@/server/platform/db/client';
import type { PayerOutcome } from '@/server/modules/charges/payer/payer-actions';
import { findPayerTransaction, merchantReturnUrl } from '@/server/modules/charges/payer/payer-transaction';
import { payerPageUrl } from '@/server/modules/charges/payer/payer-url';
import { payerLang } from './messages';

/**
 * The form posts of a payer page: run the action, then 303 to the merchant's redirect_url with
 * the outcome (when there is one and the payment moved), else back to the page, which shows it.
 */
export async function handlePayerAction(
  request: Request,
  token: string,
  act: (form: FormData) => Promise<PayerOutcome>,
): Promise<Response> {
  const lang = payerLang(new URL(request.url).searchParams.get('lang') ?? undefined);
  const form = await request.formData().catch(() => new FormData());
  const outcome = await act(form);
  const page = payerPageUrl(token, { lang });
  if (outcome.kind === 'moved') {
    const payment = await findPayerTransaction(await db(), token);
    const back = payment ? merchantReturnUrl(payment, outcome.state) : null;
    return Response.redirect(back ?? page, 303);
  }
  return Response.redirect(page, 303);
}
