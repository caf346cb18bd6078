import Link from 'next/link';
import { consoleLang } from '../../../../console-ui/lang-server';

const TEXT = {
  es: { title: 'No encontramos este comercio', body: 'Revisa el código o búscalo en Plataforma.', back: 'Volver a Plataforma' },
  en: {
    title: 'We could not find this merchant',
    body: 'Check the code or search for it in Platform.',
    back: 'Back to Platform',
  },
};

export default async function MerchantNotFound() {
  const text = TEXT[await consoleLang()];
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">{text.title}</h1>
      <p className="text-slate-700">{text.body}</p>
      <Link href="/platform" className="text-blue-800 underline">
        {text.back}
      </Link>
    </div>
  );
}
