import { DEFAULT_CONNECTOR_SETTINGS, type ConnectorSettings, type SandboxDecision, type SandboxStore } from '@/server/payments';

/** The sandbox processors' store in memory, for unit tests: what databaseSandboxStore keeps, without its cache. */
export function memorySandboxStore(): SandboxStore {
  const settings = new Map<string, ConnectorSettings>();
  const records = new Map<string, SandboxDecision>();
  const key = (connectorId: string, reference: string) => JSON.stringify([connectorId, reference]);
  const settingsOf = (connectorId: string) => settings.get(connectorId) ?? DEFAULT_CONNECTOR_SETTINGS;
  return {
    async modeOf(connectorId) {
      return settingsOf(connectorId);
    },
    async record(connectorId, reference, decision) {
      const at = key(connectorId, reference);
      if (!records.has(at)) {
        records.set(
          at,
          decision.outcome === 'approved' && decision.uncaptured ? { ...decision, capturedAmount: null } : decision,
        );
      }
    },
    async find(connectorId, reference) {
      return records.get(key(connectorId, reference)) ?? null;
    },
    async capture(connectorId, reference, amount) {
      const record = records.get(key(connectorId, reference));
      if (record?.outcome === 'approved' && record.uncaptured && record.capturedAmount == null && !record.voided) {
        records.set(key(connectorId, reference), { ...record, capturedAmount: amount });
      }
      return records.get(key(connectorId, reference)) ?? null;
    },
    async void(connectorId, reference) {
      const record = records.get(key(connectorId, reference));
      if (record?.outcome === 'approved') records.set(key(connectorId, reference), { ...record, voided: true });
    },
    async setMode(connectorId, mode) {
      settings.set(connectorId, { ...settingsOf(connectorId), mode });
    },
    async setEnabled(connectorId, enabled) {
      settings.set(connectorId, { ...settingsOf(connectorId), enabled });
    },
  };
}
