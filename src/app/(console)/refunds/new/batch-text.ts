import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/routers/app-router';
import type { RefusalReason } from '@/server/modules/refunds/request-refunds';
import type { ConsoleLang } from '../../../console-ui/i18n';

// The texts and shapes shared by the parts of the batch refund form (client components).
export type BatchOutcome = inferRouterOutputs<AppRouter>['console']['refundBatch'];
type Refusal = { reason: RefusalReason; detail: string | null };

export type Candidate = {
  transactionId: string;
  merchantOperationNumber: string;
  method: string;
  amount: string;
  currency: string;
  maskedPan: string | null;
  createdAt: string;
};

export type Fields = { canal: string; reason: string; description: string };

/**
 * One transaction to refund: from the eligible list (`candidate`) or pasted by id; `own`: its own
 * reason; `amount`: a part, as typed (empty: all of what can be refunded).
 */
export type BatchItem = { transactionId: string; candidate: Candidate | null; own: Fields | null; amount: string };

export const MAX_ITEMS = 50;

const es = {
  eligible: 'Transacciones reembolsables',
  eligibleHint: 'Liquidadas, de un medio con reembolsos (CARD, YAPE, CUOTEALO) y con algo aún por reembolsar.',
  noEligible: 'No hay transacciones reembolsables que coincidan.',
  more: (count: number) => `Se muestran las ${count} más recientes: busca para acotar la lista.`,
  eligibleCaption: 'Transacciones reembolsables, de la más reciente a la más antigua',
  include: 'Incluir',
  includeOne: (number: string) => `Incluir ${number}`,
  addVisible: 'Agregar todas las de la lista',
  operation: 'Operación',
  method: 'Medio',
  amount: 'Monto',
  date: (zone: string) => `Fecha (${zone})`,
  paste: 'Pegar ids de transacción',
  pasteLabel: 'Ids de transacción',
  pasteHint: 'Uno por línea, o separados por comas o espacios.',
  addPasted: 'Agregar ids',
  tooLong: (id: string) => `«${id.slice(0, 20)}…» no es un id de transacción.`,
  tooMany: `Una solicitud lleva como máximo ${MAX_ITEMS} ítems.`,
  common: 'Motivo para todos los ítems',
  commonHint: 'Cada ítem puede tener su propio motivo.',
  canal: 'Canal',
  reason: 'Motivo',
  description: 'Descripción',
  items: (count: number) => `Reembolsos a solicitar (${count})`,
  noItems: 'Aún no elegiste transacciones: márcalas en la lista o pega sus ids.',
  itemLegend: (index: number, label: string) => `Ítem ${index}: ${label}`,
  pasted: 'id pegado: se verifica al enviar',
  ownReason: 'Motivo propio para este ítem',
  partAmount: (label: string) => `Monto de ${label} (vacío: todo)`,
  badPart: (index: number) => `El monto del ítem ${index} no es un monto: escribe por ejemplo 50.00, o déjalo vacío para todo.`,
  remove: 'Quitar',
  needReason: (index: number) => `Falta el motivo del ítem ${index}.`,
  needCommonReason: 'Escribe el motivo para todos los ítems (o uno propio en cada ítem).',
  submit: (count: number) => (count === 1 ? 'Solicitar 1 reembolso' : `Solicitar ${count} reembolsos`),
  confirmTitle: (count: number) => (count === 1 ? '¿Solicitar 1 reembolso?' : `¿Solicitar ${count} reembolsos?`),
  confirmText:
    'Cada pagador recibe lo que aún se puede reembolsar de su transacción, o el monto que escribiste. Se registran todos o ninguno: si un ítem no se puede reembolsar, no se registra nada y te decimos por qué.',
  confirm: 'Sí, solicitar',
  back: 'Volver',
  sending: 'Enviando…',
  filedTitle: (count: number) => (count === 1 ? '1 reembolso registrado' : `${count} reembolsos registrados`),
  refusedTitle: 'No se registró ningún reembolso',
  refusedText: (failed: number, total: number) =>
    `La solicitud es todo o nada: ${failed} de ${total} ítems no se pueden reembolsar. Quita o corrige esos ítems y vuelve a enviarla.`,
  removeFailed: 'Quitar los ítems con error',
  open: (id: string) => `Ver reembolso ${id.slice(0, 8)}`,
  valid: 'Sin errores: no se registró porque otro ítem falló.',
  refusal: ({ reason, detail }: Refusal): string => {
    switch (reason) {
      case 'not_found':
        return 'No encontrada: no existe o no es de este comercio.';
      case 'method_not_refundable':
        return `El medio ${detail ?? ''} no admite reembolsos.`;
      case 'not_settled':
        return `Aún no está liquidada (estado ${detail ?? '—'}): solo se reembolsan transacciones LIQUIDADO.`;
      case 'already_refunded':
        return 'Ya tiene un reembolso.';
      case 'repeated_in_batch':
        return 'Está repetida en esta solicitud.';
      case 'amount_mismatch':
        return 'El monto no es el de la transacción.';
      case 'exceeds_refundable':
        return 'El monto pasa lo que aún se puede reembolsar.';
      case 'partial_not_supported':
        return 'Su procesador solo reembolsa el total.';
    }
  },
};

const en: typeof es = {
  eligible: 'Refundable transactions',
  eligibleHint: 'Settled, of a method with refunds (CARD, YAPE, CUOTEALO) and with something still to refund.',
  noEligible: 'No refundable transactions match.',
  more: (count: number) => `Showing the ${count} newest: search to narrow the list.`,
  eligibleCaption: 'Refundable transactions, newest first',
  include: 'Include',
  includeOne: (number: string) => `Include ${number}`,
  addVisible: 'Add every one listed',
  operation: 'Operation',
  method: 'Method',
  amount: 'Amount',
  date: (zone: string) => `Date (${zone})`,
  paste: 'Paste transaction ids',
  pasteLabel: 'Transaction ids',
  pasteHint: 'One per line, or separated by commas or spaces.',
  addPasted: 'Add ids',
  tooLong: (id: string) => `“${id.slice(0, 20)}…” is not a transaction id.`,
  tooMany: `A request holds at most ${MAX_ITEMS} items.`,
  common: 'Reason for every item',
  commonHint: 'Each item may have its own reason.',
  canal: 'Channel',
  reason: 'Reason',
  description: 'Description',
  items: (count: number) => `Refunds to request (${count})`,
  noItems: 'No transactions chosen yet: tick them in the list or paste their ids.',
  itemLegend: (index: number, label: string) => `Item ${index}: ${label}`,
  pasted: 'pasted id: checked when sent',
  ownReason: 'Own reason for this item',
  partAmount: (label: string) => `Amount of ${label} (empty: all of it)`,
  badPart: (index: number) => `Item ${index}'s amount is no amount: write e.g. 50.00, or leave it empty for all of it.`,
  remove: 'Remove',
  needReason: (index: number) => `Item ${index} has no reason.`,
  needCommonReason: 'Write the reason for every item (or give each item its own).',
  submit: (count: number) => (count === 1 ? 'Request 1 refund' : `Request ${count} refunds`),
  confirmTitle: (count: number) => (count === 1 ? 'Request 1 refund?' : `Request ${count} refunds?`),
  confirmText:
    'Each payer gets what can still be refunded of their transaction, or the amount you wrote. All are registered or none: if one item cannot be refunded, nothing is registered and we tell you why.',
  confirm: 'Yes, request',
  back: 'Go back',
  sending: 'Sending…',
  filedTitle: (count: number) => (count === 1 ? '1 refund registered' : `${count} refunds registered`),
  refusedTitle: 'No refund was registered',
  refusedText: (failed: number, total: number) =>
    `The request is all or nothing: ${failed} of ${total} items cannot be refunded. Remove or fix them and send it again.`,
  removeFailed: 'Remove the failing items',
  open: (id: string) => `Open refund ${id.slice(0, 8)}`,
  valid: 'No errors: not registered because another item failed.',
  refusal: ({ reason, detail }: Refusal): string => {
    switch (reason) {
      case 'not_found':
        return 'Not found: it does not exist or is not this merchant’s.';
      case 'method_not_refundable':
        return `${detail ?? ''} payments cannot be refunded.`;
      case 'not_settled':
        return `Not settled yet (state ${detail ?? '—'}): only LIQUIDADO transactions can be refunded.`;
      case 'already_refunded':
        return 'It already has a refund.';
      case 'repeated_in_batch':
        return 'It appears twice in this request.';
      case 'amount_mismatch':
        return 'The amount is not the transaction’s.';
      case 'exceeds_refundable':
        return 'The amount is more than can still be refunded.';
      case 'partial_not_supported':
        return 'Its processor refunds only in whole.';
    }
  },
};

export const BATCH_TEXT: Record<ConsoleLang, typeof es> = { es, en };

/** How an item is named on the form and in its result: its operation number, or the pasted id. */
export function itemLabel(item: BatchItem): string {
  return item.candidate?.merchantOperationNumber ?? item.transactionId;
}
