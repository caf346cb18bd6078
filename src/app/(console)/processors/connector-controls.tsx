'use client';

import { CONNECTOR_MODES } from '@/server/core/domain/connector-modes';
import { INPUT, ActionError } from '../../console-ui/form-kit';
import { useConsoleLang } from '../../console-ui/lang-context';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleAction } from '../../console-ui/use-console-action';

const TEXT = {
  es: { mode: (id: string) => `Modo de ${id}`, enable: 'Habilitar', disable: 'Deshabilitar' },
  en: { mode: (id: string) => `Mode of ${id}`, enable: 'Enable', disable: 'Disable' },
};

/** A platform admin's controls of one sandbox connector: its mode and whether routing may use it, for every instance. */
export function ConnectorControls({ connector, mode, enabled }: { connector: string; mode: string; enabled: boolean }) {
  const text = TEXT[useConsoleLang()];
  const { busy, error, run } = useConsoleAction();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <select
        aria-label={text.mode(connector)}
        className={`${INPUT} mt-0 w-auto`}
        defaultValue={mode}
        disabled={busy}
        onChange={(event) =>
          run(() =>
            consoleClient.console.processors.setMode.mutate({
              connector,
              mode: event.target.value as (typeof CONNECTOR_MODES)[number],
            }),
          )
        }
      >
        {CONNECTOR_MODES.map((each) => (
          <option key={each} value={each}>
            {each}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={busy}
        className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-50 disabled:opacity-50"
        onClick={() => run(() => consoleClient.console.processors.setEnabled.mutate({ connector, enabled: !enabled }))}
      >
        {enabled ? text.disable : text.enable}
      </button>
      <ActionError message={error} />
    </div>
  );
}
