import type { PaymentMethod } from '@/server/domain/states';
import type { PaymentConnector } from './connector';
import { cardConnector } from './sandbox/card';
import { pagoEfectivoConnector } from './sandbox/pagoefectivo';
import { qrConnector } from './sandbox/qr';
import { bankTransferConnector, cuotealoConnector } from './sandbox/redirect';
import { yapeConnector } from './sandbox/yape';

const CONNECTORS: Readonly<Record<PaymentMethod, PaymentConnector>> = {
  CARD: cardConnector,
  YAPE: yapeConnector,
  BANK_TRANSFER: bankTransferConnector,
  CUOTEALO: cuotealoConnector,
  PAGOEFECTIVO: pagoEfectivoConnector,
  QR: qrConnector,
};

export function connectorFor(method: PaymentMethod): PaymentConnector {
  return CONNECTORS[method];
}
