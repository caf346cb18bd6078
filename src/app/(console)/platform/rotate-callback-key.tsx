'use client';

import { consoleClient } from '../../console-ui/trpc-client';
import { ConfirmThenAct } from '../../console-ui/confirm-then-act';
import { useConsoleLang } from '../../console-ui/lang-context';

const TEXT = {
  es: {
    rotate: 'Rotar la llave de firma',
    title: '¿Rotar la llave de firma de callbacks?',
    body: 'La llave nueva firma los callbacks desde ahora. La actual sigue publicada 7 días: avisa a los comercios que verifiquen con /api/webhooks/keys (o que vuelvan a leer /api/webhooks/public-key) antes de que termine.',
    yes: 'Sí, rotar',
    no: 'No',
    done: (kid: string) => `La llave ${kid} firma desde ahora.`,
  },
  en: {
    rotate: 'Rotate the signing key',
    title: 'Rotate the callback signing key?',
    body: 'The new key signs callbacks from now on. The current one stays published for 7 days: tell merchants to verify with /api/webhooks/keys (or to read /api/webhooks/public-key again) before it ends.',
    yes: 'Yes, rotate',
    no: 'No',
    done: (kid: string) => `Key ${kid} signs from now on.`,
  },
};

export function RotateCallbackKey() {
  const text = TEXT[useConsoleLang()];
  return (
    <ConfirmThenAct
      id="rotate-callback-key"
      label={text.rotate}
      title={text.title}
      body={text.body}
      yes={text.yes}
      no={text.no}
      act={() => consoleClient.console.platform.rotateCallbackKey.mutate({})}
      done={(result) => text.done(result.kid)}
      doneTestId="rotated-key"
    />
  );
}
