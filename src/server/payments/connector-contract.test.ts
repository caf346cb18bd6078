import { connectorBattery } from '@tests/support/connector-battery';
import { culqiHarness, mercadoPagoHarness, sandboxHarnesses } from '@tests/support/connector-harnesses';

// The connectors' one battery (tests/support/connector-battery.ts) against the sandbox processors
// on stores of their own and Culqi's and Mercado Pago's connectors at their simulators; Niubiz's
// and Izipay's run it in their own files (niubiz/, izipay/), beside their own tests.

connectorBattery([...sandboxHarnesses(), await culqiHarness(), await mercadoPagoHarness()]);
