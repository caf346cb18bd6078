import { NotFoundNotice, type NotFoundText } from '../../../console-ui/not-found-notice';

const TEXT: NotFoundText = {
  es: {
    title: 'No encontramos esta operación',
    body: 'No existe, o no pertenece a tu comercio.',
    back: 'Volver a operaciones',
  },
  en: {
    title: 'We could not find this operation',
    body: 'It does not exist, or it does not belong to your merchant.',
    back: 'Back to operations',
  },
};

/** Also what a user sees for another merchant's operation: it does not exist for them. */
export default function OperationNotFound() {
  return <NotFoundNotice text={TEXT} href="/operations" />;
}
