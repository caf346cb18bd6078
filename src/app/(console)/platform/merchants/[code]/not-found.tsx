import { Notice } from '../../../../console-ui/notice';
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
  return <Notice title={text.title} body={text.body} href="/platform" link={text.back} />;
}
