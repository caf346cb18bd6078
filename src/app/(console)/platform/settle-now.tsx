'use client';

import { consoleClient } from '../../console-ui/trpc-client';
import { ConfirmThenAct } from '../../console-ui/confirm-then-act';
import { useConsoleLang } from '../../console-ui/lang-context';

const TEXT = {
  es: {
    run: 'Ejecutar el corte de liquidación ahora',
    runOne: 'Ejecutar el corte de liquidación de este comercio ahora',
    title: '¿Ejecutar el corte de liquidación ahora?',
    body: (count: number, one: boolean) =>
      `Todas las transacciones AUTORIZADO ${one ? 'de este comercio' : 'de todos los comercios'} (ahora ${count}) pasan a LIQUIDADO y se notifica a su callback_url. No se puede deshacer: una transacción liquidada ya no se puede extornar; solo reembolsar si su medio lo permite.`,
    yes: 'Sí, liquidar ahora',
    no: 'No',
    result: (count: number) => (count === 1 ? 'Se liquidó 1 transacción.' : `Se liquidaron ${count} transacciones.`),
  },
  en: {
    run: 'Run the settlement cut-off now',
    runOne: 'Run this merchant’s settlement cut-off now',
    title: 'Run the settlement cut-off now?',
    body: (count: number, one: boolean) =>
      `Every AUTORIZADO transaction of ${one ? 'this merchant' : 'every merchant'} (${count} now) becomes LIQUIDADO and its callback_url is notified. It cannot be undone: a settled transaction can no longer be reversed, only refunded where its method allows.`,
    yes: 'Yes, settle now',
    no: 'No',
    result: (count: number) => (count === 1 ? '1 transaction was settled.' : `${count} transactions were settled.`),
  },
};

/** The cut-off now: for every merchant, or only the one named (a merchant's page). */
export function SettleNow({ awaiting, merchantCode }: { awaiting: number; merchantCode?: string }) {
  const text = TEXT[useConsoleLang()];
  return (
    <ConfirmThenAct
      id="settle"
      label={merchantCode ? text.runOne : text.run}
      title={text.title}
      body={text.body(awaiting, merchantCode !== undefined)}
      yes={text.yes}
      no={text.no}
      act={() => consoleClient.console.platform.settleNow.mutate({ merchantCode })}
      done={(result) => text.result(result.settled)}
      doneTestId="settled-result"
    />
  );
}
