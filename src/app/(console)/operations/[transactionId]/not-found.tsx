import Link from 'next/link';
import { consoleLang } from '../../../console-ui/lang-server';

const TEXT = {
  es: {
    heading: 'No encontramos esta operación',
    body: 'No existe, o no pertenece a tu comercio.',
    back: 'Volver a operaciones',
  },
  en: {
    heading: 'We could not find this operation',
    body: 'It does not exist, or it does not belong to your merchant.',
    back: 'Back to operations',
  },
};

/** Also what a user sees for another merchant's operation: it does not exist for them. */
export default async function OperationNotFound() {
  const text = TEXT[await consoleLang()];
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">{text.heading}</h1>
      <p className="text-slate-700">{text.body}</p>
      <Link href="/operations" className="text-blue-800 underline">
        {text.back}
      </Link>
    </div>
  );
}
