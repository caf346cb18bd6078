'use client';

import { useTranslations } from 'next-intl';
import { CONNECTOR_MODES, type ConnectorMode as ConnectorModeName } from '@/server/core/domain/connector-modes';
import { INPUT, ActionError } from '../../console-ui/form-kit';
import { consoleClient } from '../../console-ui/trpc-client';
import { useConsoleAction } from '../../console-ui/use-console-action';

/** A connector's mode in the console's language, as a reader without the controls sees it. */
export function ConnectorMode({ mode }: { mode: string }) {
  const modes = useTranslations('processors');
  return <>{isConnectorMode(mode) ? modes(`connectorModes.${mode}`) : mode}</>;
}

const isConnectorMode = (mode: string): mode is ConnectorModeName => (CONNECTOR_MODES as readonly string[]).includes(mode);

/** A platform admin's controls of one sandbox connector: its mode and whether routing may use it, for every instance. */
export function ConnectorControls({ connector, mode, enabled }: { connector: string; mode: string; enabled: boolean }) {
  const t = useTranslations('processors.connectorControls');
  const modes = useTranslations('processors');
  const { busy, error, run } = useConsoleAction();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <select
        aria-label={t('mode', { id: connector })}
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
            {modes(`connectorModes.${each}`)}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={busy}
        className="rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-50 disabled:opacity-50"
        onClick={() => run(() => consoleClient.console.processors.setEnabled.mutate({ connector, enabled: !enabled }))}
      >
        {enabled ? t('disable') : t('enable')}
      </button>
      <ActionError message={error} />
    </div>
  );
}
