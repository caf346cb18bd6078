import { env } from '@/env';
import type { CurrencyCode } from '@/server/core/domain/money';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { PaymentConnector } from './connector';
import { checkCulqiAccount, CULQI_CAPABILITIES, CULQI_CURRENCIES, CULQI_METHODS, culqiConnector } from './culqi/culqi-connector';
import {
  checkMercadoPagoAccount,
  MERCADOPAGO_CAPABILITIES,
  MERCADOPAGO_CURRENCIES,
  MERCADOPAGO_METHODS,
  mercadoPagoConnector,
} from './mercadopago/mercadopago-connector';
import {
  checkIzipayAccount,
  IZIPAY_CAPABILITIES,
  IZIPAY_CURRENCIES,
  IZIPAY_METHODS,
  izipayConnector,
} from './izipay/izipay-connector';
import {
  checkNiubizAccount,
  NIUBIZ_CAPABILITIES,
  NIUBIZ_CURRENCIES,
  NIUBIZ_METHODS,
  niubizConnector,
} from './niubiz/niubiz-connector';
import type { AccountCheck, Processor, ProcessorAccountConfig, ProcessorEndpoints } from './processor-account';

// The processors a merchant can connect its own account to (docs/processors/README.md), and the
// connector of one account. Everything else sees only the connector interface.

export const PROCESSOR_METHODS: Readonly<Record<Processor, readonly PaymentMethod[]>> = {
  culqi: CULQI_METHODS,
  mercadopago: MERCADOPAGO_METHODS,
  niubiz: NIUBIZ_METHODS,
  izipay: IZIPAY_METHODS,
};

/** What every account of a processor carries: its connectors' currencies and capabilities, as routing reads them without building one. */
export const PROCESSOR_FACTS: Readonly<
  Record<Processor, { currencies: readonly CurrencyCode[]; capabilities: PaymentConnector['capabilities'] }>
> = {
  culqi: { currencies: CULQI_CURRENCIES, capabilities: CULQI_CAPABILITIES },
  mercadopago: { currencies: MERCADOPAGO_CURRENCIES, capabilities: MERCADOPAGO_CAPABILITIES },
  niubiz: { currencies: NIUBIZ_CURRENCIES, capabilities: NIUBIZ_CAPABILITIES },
  izipay: { currencies: IZIPAY_CURRENCIES, capabilities: IZIPAY_CAPABILITIES },
};

export const PROCESSOR_NAMES: Readonly<Record<Processor, string>> = {
  culqi: 'Culqi',
  mercadopago: 'Mercado Pago',
  niubiz: 'Niubiz',
  izipay: 'Izipay',
};

type Integration = {
  connector(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): PaymentConnector;
  check(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): Promise<AccountCheck>;
};

const INTEGRATIONS: Readonly<Record<Processor, Integration>> = {
  culqi: { connector: culqiConnector, check: checkCulqiAccount },
  mercadopago: { connector: mercadoPagoConnector, check: checkMercadoPagoAccount },
  niubiz: { connector: niubizConnector, check: checkNiubizAccount },
  izipay: { connector: izipayConnector, check: checkIzipayAccount },
};

/** The processors' APIs as configuration names them. */
export function processorEndpoints(): ProcessorEndpoints {
  const config = env();
  return {
    culqiApi: config.CULQI_API_URL,
    culqiSecure: config.CULQI_SECURE_URL,
    mercadoPagoApi: config.MERCADOPAGO_API_URL,
    niubizApi: { test: config.NIUBIZ_TEST_API_URL, live: config.NIUBIZ_LIVE_API_URL },
    izipayApi: config.IZIPAY_API_URL,
    timeoutMs: config.PROCESSOR_TIMEOUT_MS,
  };
}

export function processorConnector(account: ProcessorAccountConfig, endpoints = processorEndpoints()): PaymentConnector {
  return INTEGRATIONS[account.processor].connector(account, endpoints);
}

/** Asks the processor whether it takes the account's keys. */
export function checkProcessorAccount(account: ProcessorAccountConfig, endpoints = processorEndpoints()): Promise<AccountCheck> {
  return INTEGRATIONS[account.processor].check(account, endpoints);
}
