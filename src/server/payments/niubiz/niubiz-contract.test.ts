import { connectorBattery } from '@tests/support/connector-battery';
import { niubizHarness } from '@tests/support/niubiz-harness';

// The one contract battery every connector passes (tests/support/connector-battery.ts), against
// the Niubiz simulator. Niubiz's own rules: niubiz-connector.test.ts.
connectorBattery([await niubizHarness()]);
