'use client';

import { useState } from 'react';
import { consoleClient } from '../../console-ui/trpc-client';
import { ActionError, Confirm } from '../../console-ui/form-kit';
import { SECONDARY_BUTTON } from '../../console-ui/buttons';
import { useConsoleLang } from '../../console-ui/lang-context';
import { useConsoleAction } from '../../console-ui/use-console-action';

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
  const action = useConsoleAction();
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      {confirming ? (
        <Confirm
          id="rotate-callback-key"
          title={text.title}
          body={text.body}
          yes={text.yes}
          no={text.no}
          busy={action.busy}
          onYes={() =>
            action.run(
              () => consoleClient.console.platform.rotateCallbackKey.mutate({}),
              (result) => {
                setConfirming(false);
                setRotated(result.kid);
              },
            )
          }
          onNo={() => setConfirming(false)}
        />
      ) : (
        <button
          type="button"
          disabled={action.busy}
          className={SECONDARY_BUTTON}
          onClick={() => {
            setRotated(null);
            setConfirming(true);
          }}
        >
          {text.rotate}
        </button>
      )}
      <ActionError message={action.error} />
      {rotated ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="rotated-key">
          {text.done(rotated)}
        </p>
      ) : null}
    </div>
  );
}
