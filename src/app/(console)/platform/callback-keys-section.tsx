import type { ConsoleLang } from '../../console-ui/i18n';
import { Section } from '../../console-ui/form-kit';
import { businessTime } from '../../console-ui/format';
import { CELL, DataTable } from '../../console-ui/table';
import { RotateCallbackKey } from './rotate-callback-key';

const TEXT = {
  es: {
    title: 'Llaves de firma de callbacks',
    about:
      'Cada callback lleva su firma (signature) y el id de la llave que la hizo (signature-key-id). Al rotar, la llave nueva firma de inmediato y la anterior sigue publicada en /api/webhooks/keys durante el solapamiento, para que los receptores que solo la tienen sigan verificando.',
    configured: 'La llave viene de CALLBACK_SIGNING_KEY_PEM: se rota en la configuración.',
    columns: ['Id de llave', 'Estado', 'Creada', 'Deja de publicarse'],
    active: 'Firma ahora',
    retiring: 'Publicada (solapamiento)',
    never: '—',
  },
  en: {
    title: 'Callback signing keys',
    about:
      'Every callback carries its signature (signature) and the id of the key that made it (signature-key-id). On rotation the new key signs at once and the old one stays published at /api/webhooks/keys for the overlap, so receivers that only have it still verify.',
    configured: 'The key comes from CALLBACK_SIGNING_KEY_PEM: rotate it in the configuration.',
    columns: ['Key id', 'Status', 'Created', 'Published until'],
    active: 'Signing now',
    retiring: 'Published (overlap)',
    never: '—',
  },
};

type Key = { kid: string; active: boolean; createdAt: string; retiresAt: string | null };
type Props = { keys: Key[]; configured: boolean; canEdit: boolean; lang: ConsoleLang; zone: string };

/** The keys callbacks may be signed with now and, for platform admins, a rotation. */
export function CallbackKeysSection({ keys, configured, canEdit, lang, zone }: Props) {
  const text = TEXT[lang];
  return (
    <Section id="callback-keys" title={text.title}>
      <p className="text-sm text-slate-600">{text.about}</p>
      <DataTable columns={text.columns} testId="callback-keys">
        {keys.map((key) => (
          <tr key={key.kid} className="border-t border-slate-100" data-testid="callback-key">
            <td className={`${CELL} font-mono`}>{key.kid}</td>
            <td className={CELL}>{key.active ? text.active : text.retiring}</td>
            <td className={CELL}>{businessTime(key.createdAt, lang, zone)}</td>
            <td className={CELL}>{key.retiresAt ? businessTime(key.retiresAt, lang, zone) : text.never}</td>
          </tr>
        ))}
      </DataTable>
      {configured ? <p className="text-sm">{text.configured}</p> : canEdit ? <RotateCallbackKey /> : null}
    </Section>
  );
}
