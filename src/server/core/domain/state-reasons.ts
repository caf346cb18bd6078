import type { RefundState } from './states';
// Every state_reason the service writes itself, in one table (the words are part of the
// interface: a merchant's systems and the console read them). A processor's own decline words
// stand beside these: connectors pass them through as the processor sent them.
export const STATE_REASONS = {
  approved: 'Transacción aprobada',
  timeout: 'El procesador no respondió a tiempo',
  unavailable: 'El procesador no está disponible',
  processorError: 'Error del procesador',
  /** An ambiguous answer whose status the processor could not give yet: the status sync asks again. */
  verifying: 'El procesador no respondió; verificando',
  notReceived: 'El procesador no recibió el pago',
  /** The status sync gave up on a payment the processor never confirmed, after reversing it there. */
  unconfirmedVoided: 'El procesador no confirmó el pago; anulado',
  voidedByProcessor: 'El procesador anuló el pago',
  orderVoided: 'Orden anulada en el procesador',
  paidAtProcessor: 'Pago confirmado por el procesador',
  paidByPayer: 'Pago confirmado por el pagador',
  expired: 'El pago no se completó antes de su vencimiento',
  abandoned: 'Pago abandonado por el pagador',
  settled: 'Transacción liquidada',
  /** An authorization to capture later that nobody captured within the merchant's window. */
  captureWindowPassed: 'Autorización anulada: no se capturó dentro de su plazo',
  challengePending: 'Autenticación 3-D Secure pendiente del pagador',
  unauthenticated: 'Autenticación 3-D Secure fallida',
  cipWaiting: 'CIP generado, esperando el pago en efectivo',
  qrWaiting: 'QR generado, esperando el pago',
  instalmentsWaiting: 'Esperando que el pagador complete el pago en cuotas',
} as const;

/** The result message of every approval, whichever processor gave it. */
export const APPROVED_MESSAGE = { code: '00', description: 'Aprobado' } as const;

/** A decline a status inquiry or notification found, named by the processor's code only. */
export const declinedByProcessor = (code: string) => `Denegada por el procesador (${code})`;

/** A DELETE's move: an approval reversed, or a pending payment cancelled, and who asked. */
export const reversedBy = (actor: string) => `Autorización extornada (${actor})`;
export const cancelledBy = (actor: string) => `Operación cancelada (${actor})`;

/** A refund's reason, set with each of its states. */
export const REFUND_REASONS: Record<RefundState, string> = {
  REGISTERED: 'Solicitud de reembolso registrada',
  IN_PROCESS: 'Reembolso en proceso',
  RESOLVED: 'Reembolso realizado',
  REJECTED: 'Reembolso rechazado por el procesador',
};
