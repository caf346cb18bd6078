import { NotFoundNotice, type NotFoundText } from '../../../console-ui/not-found-notice';

const TEXT: NotFoundText = {
  es: { title: 'No encontramos este reembolso', body: 'No existe, o no pertenece a tu comercio.', back: 'Volver a reembolsos' },
  en: {
    title: 'We could not find this refund',
    body: 'It does not exist, or it is not your merchant’s.',
    back: 'Back to refunds',
  },
};

/** Also what a user sees for another merchant's refund: it does not exist for them. */
export default function RefundNotFound() {
  return <NotFoundNotice text={TEXT} href="/refunds" />;
}
