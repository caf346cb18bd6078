import type { PaymentMethod } from '@/server/domain/states';
import type { PaymentConnector } from './connector';
import { cardConnector } from './sandbox/card';
import { pagoEfectivoConnector } from './sandbox/pagoefectivo';
import { qrConnector } from './sandbox/qr';
import { bankTransferConnector, cuotealoConnector } from './sandbox/redirect';
import { yapeConnector } from './sandbox/yape';

/** Every connector the service can use; the first that declares a method carries its payments. */
export const CONNECTORS: readonly PaymentConnector[] = [
  cardConnector,
  yapeConnector,
  bankTransferConnector,
  cuotealoConnector,
  pagoEfectivoConnector,
  qrConnector,
];

export function connectorFor(method: PaymentMethod): PaymentConnector {
  const connector = CONNECTORS.find((candidate) => candidate.methods.includes(method));
  if (!connector) throw new Error(`No connector carries ${method} payments`);
  return connector;
}
