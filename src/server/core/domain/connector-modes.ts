// How a sandbox processor behaves, set by platform admins for every instance (docs/ORCHESTRATION.md 1).
export const CONNECTOR_MODES = ['normal', 'outage', 'slow', 'flaky', 'declining'] as const;
export type ConnectorMode = (typeof CONNECTOR_MODES)[number];
