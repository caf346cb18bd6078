'use client';

import { useState } from 'react';
import { consoleClient } from '../../../../console-ui/trpc-client';
import { formText } from '../../../../console-ui/form-text';
import { ActionError, Confirm, Field, Select } from '../../../../console-ui/form-kit';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '../../../../console-ui/buttons';
import { useConsoleLang } from '../../../../console-ui/lang-context';
import { useConsoleAction } from '../../../../console-ui/use-console-action';

const TEXT = {
  es: {
    current: 'Facilitador actual',
    none: 'Ninguno: solo las credenciales propias del comercio actúan por él.',
    choose: 'Facilitador',
    link: 'Vincular',
    noFacilitators: 'Aún no hay facilitadores: créalos en Plataforma.',
    unlink: 'Desvincular',
    unlinkTitle: (code: string) => `¿Desvincular del facilitador ${code}?`,
    unlinkBody: 'Las credenciales del facilitador dejarán de actuar por este comercio. Las del comercio siguen funcionando.',
    yes: 'Sí, desvincular',
    no: 'No',
  },
  en: {
    current: 'Current facilitator',
    none: 'None: only the merchant’s own credentials act for it.',
    choose: 'Facilitator',
    link: 'Link',
    noFacilitators: 'There are no facilitators yet: create them in Platform.',
    unlink: 'Unlink',
    unlinkTitle: (code: string) => `Unlink from facilitator ${code}?`,
    unlinkBody: 'The facilitator’s credentials will stop acting for this merchant. The merchant’s own keep working.',
    yes: 'Yes, unlink',
    no: 'No',
  },
};

type Props = {
  merchantCode: string;
  current: { code: string; name: string } | null;
  facilitatorCodes: string[];
  canEdit: boolean;
};

export function FacilitatorLink({ merchantCode, current, facilitatorCodes, canEdit }: Props) {
  const text = TEXT[useConsoleLang()];
  const action = useConsoleAction();
  const [confirming, setConfirming] = useState(false);
  const platform = consoleClient.console.platform;
  return (
    <div className="space-y-3 text-sm">
      <p data-testid="current-facilitator">
        {text.current}:{' '}
        {current ? (
          <>
            <code className="font-semibold">{current.code}</code> — {current.name}
          </>
        ) : (
          text.none
        )}
      </p>
      {canEdit && current && !confirming ? (
        <button type="button" disabled={action.busy} className={SECONDARY_BUTTON} onClick={() => setConfirming(true)}>
          {text.unlink}
        </button>
      ) : null}
      {confirming && current ? (
        <Confirm
          id="unlink"
          title={text.unlinkTitle(current.code)}
          body={text.unlinkBody}
          yes={text.yes}
          no={text.no}
          busy={action.busy}
          onYes={() =>
            action.run(
              () => platform.unlinkMerchant.mutate({ merchantCode }),
              () => setConfirming(false),
            )
          }
          onNo={() => setConfirming(false)}
        />
      ) : null}
      {canEdit && facilitatorCodes.length === 0 ? <p className="text-slate-600">{text.noFacilitators}</p> : null}
      {canEdit && facilitatorCodes.length > 0 ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            const facilitatorCode = formText(new FormData(event.currentTarget), 'facilitatorCode');
            action.run(() => platform.linkMerchant.mutate({ facilitatorCode, merchantCode }));
          }}
        >
          <Field id="facilitator-choice" label={text.choose}>
            <Select
              id="facilitator-choice"
              name="facilitatorCode"
              defaultValue={current?.code ?? facilitatorCodes[0]!}
              options={facilitatorCodes.map((code) => ({ value: code, label: code }))}
            />
          </Field>
          <button type="submit" disabled={action.busy} className={PRIMARY_BUTTON}>
            {text.link}
          </button>
        </form>
      ) : null}
      <ActionError message={action.error} />
    </div>
  );
}
