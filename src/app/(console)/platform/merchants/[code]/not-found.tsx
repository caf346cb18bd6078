import { NotFoundNotice, type NotFoundText } from '../../../../console-ui/not-found-notice';

const TEXT: NotFoundText = {
  es: { title: 'No encontramos este comercio', body: 'Revisa el código o búscalo en Plataforma.', back: 'Volver a Plataforma' },
  en: {
    title: 'We could not find this merchant',
    body: 'Check the code or search for it in Platform.',
    back: 'Back to Platform',
  },
};

export default function MerchantNotFound() {
  return <NotFoundNotice text={TEXT} href="/platform" />;
}
