// The payments module as the rest of the service sees it: the registry, the sandbox processors'
// settings, and the connector interface's types. Nothing outside payments/ imports a connector
// (eslint.config.mjs enforces it).
export {
  checkProcessorAccount,
  createRegistry,
  processorConnector,
  processorEndpoints,
  PROCESSOR_INTEGRATIONS,
  registryFor,
  sandboxStoreFor,
  type Registry,
} from './registry';
export {
  CONNECTOR_MODES,
  DEFAULT_CONNECTOR_SETTINGS,
  type ConnectorMode,
  type ConnectorSettings,
  type SandboxDb,
  type SandboxDecision,
  type SandboxStore,
  warmSandboxRecords,
} from './sandbox/sandbox-store';
// Tests that need a flaky processor's failures pick their transaction ids with it.
export { failsFlakily } from './sandbox/sandbox-connector';
export { transactionReference, type StoredTransaction } from './transaction-reference';
export type * from './connector';
export { DECLINE_CLASSES, declineClassOf, type DeclineClass } from '@/server/core/domain/decline-class';
// Merchants' own accounts at real processors (docs/processors/README.md).
export {
  PROCESSORS,
  type AccountCheck,
  type Processor,
  type ProcessorAccountConfig,
  type ProcessorEndpoints,
  type Integration,
  type ProcessorIntegration,
} from './processor-account';
