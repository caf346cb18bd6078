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
import type { AccountCheck, Processor, ProcessorAccountConfig, ProcessorEndpoints } from './processor-account';

// The processors a merchant can connect its own account to (docs/processors/README.md), and the
// connector of one account. Everything else sees only the connector interface.

export const PROCESSOR_METHODS: Readonly<Record<Processor, readonly PaymentMethod[]>> = {
  culqi: CULQI_METHODS,
  mercadopago: MERCADOPAGO_METHODS,
};

/** What every account of a processor carries: its connectors' currencies and capabilities, as routing reads them without building one. */
export const PROCESSOR_FACTS: Readonly<
  Record<Processor, { currencies: readonly CurrencyCode[]; capabilities: PaymentConnector['capabilities'] }>
> = {
  culqi: { currencies: CULQI_CURRENCIES, capabilities: CULQI_CAPABILITIES },
  mercadopago: { currencies: MERCADOPAGO_CURRENCIES, capabilities: MERCADOPAGO_CAPABILITIES },
};

export const PROCESSOR_NAMES: Readonly<Record<Processor, string>> = { culqi: 'Culqi', mercadopago: 'Mercado Pago' };

/** The processors' APIs as configuration names them. */
export function processorEndpoints(): ProcessorEndpoints {
  const config = env();
  return {
    culqiApi: config.CULQI_API_URL,
    culqiSecure: config.CULQI_SECURE_URL,
    mercadoPagoApi: config.MERCADOPAGO_API_URL,
    timeoutMs: config.PROCESSOR_TIMEOUT_MS,
  };
}

export function processorConnector(account: ProcessorAccountConfig, endpoints = processorEndpoints()): PaymentConnector {
  return account.processor === 'culqi' ? culqiConnector(account, endpoints) : mercadoPagoConnector(account, endpoints);
}

/** Asks the processor whether it takes the account's keys. */
export function checkProcessorAccount(account: ProcessorAccountConfig, endpoints = processorEndpoints()): Promise<AccountCheck> {
  return account.processor === 'culqi' ? checkCulqiAccount(account, endpoints) : checkMercadoPagoAccount(account, endpoints);
}
