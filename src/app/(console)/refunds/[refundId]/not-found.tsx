import Link from 'next/link';
import { consoleLang } from '../../../console-ui/lang-server';

const TEXT = {
  es: { title: 'No encontramos este reembolso', body: 'No existe, o no pertenece a tu comercio.', back: 'Volver a reembolsos' },
  en: {
    title: 'We could not find this refund',
    body: 'It does not exist, or it is not your merchant’s.',
    back: 'Back to refunds',
  },
};

/** Also what a user sees for another merchant's refund: it does not exist for them. */
export default async function RefundNotFound() {
  const text = TEXT[await consoleLang()];
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">{text.title}</h1>
      <p className="text-slate-700">{text.body}</p>
      <Link href="/refunds" className="text-blue-800 underline">
        {text.back}
      </Link>
    </div>
  );
}
