// Payer page texts: Spanish by default, English with ?lang=en.
export type PayerLang = 'es' | 'en';

export const MESSAGES = {
  es: {
    title: 'Completa tu pago',
    merchant: 'Comercio',
    order: 'Pedido',
    amount: 'Monto',
    method: 'Medio de pago',
    expiresIn: 'Vence en',
    expired: 'Este pago venció',
    pay: 'Pagar',
    payBank: 'Confirmar transferencia',
    payCuotealo: 'Aprobar crédito en cuotas',
    payCash: 'Registrar pago en efectivo',
    payQr: 'Pagar con QR',
    abandon: 'Cancelar y volver',
    installments: 'Número de cuotas',
    cipTitle: 'Código de pago (CIP)',
    copy: 'Copiar',
    copied: 'Copiado',
    howToPay:
      'Paga en agentes y bodegas, en ventanilla o en la banca por internet de tu banco: elige PagoEfectivo e ingresa el código CIP.',
    qrHelp: 'Escanea este código con la app de tu banco o billetera.',
    sandbox: 'Sandbox: simula la acción del pagador',
    stateTitle: {
      AUTORIZADO: 'Pago realizado',
      CANCELADO: 'Pago cancelado',
      EXPIRADO: 'Pago vencido',
      other: 'Este enlace ya no admite pagos',
    },
    stateBody: {
      AUTORIZADO: 'El comercio ya recibió la confirmación de tu pago.',
      CANCELADO: 'No se realizó ningún cargo.',
      EXPIRADO: 'El plazo para pagar terminó. No se realizó ningún cargo.',
      other: 'Este pago ya fue procesado.',
    },
    backToMerchant: 'Volver al comercio',
    notFound: 'No encontramos este pago',
    notFoundBody: 'El enlace no es válido. Revisa el enlace que te envió el comercio.',
    methods: {
      BANK_TRANSFER: 'Transferencia bancaria',
      CUOTEALO: 'Cuotéalo (pago en cuotas)',
      PAGOEFECTIVO: 'PagoEfectivo',
      QR: 'QR',
    },
    language: 'English',
  },
  en: {
    title: 'Complete your payment',
    merchant: 'Merchant',
    order: 'Order',
    amount: 'Amount',
    method: 'Payment method',
    expiresIn: 'Expires in',
    expired: 'This payment has expired',
    pay: 'Pay',
    payBank: 'Confirm transfer',
    payCuotealo: 'Approve instalment credit',
    payCash: 'Record cash payment',
    payQr: 'Pay with QR',
    abandon: 'Cancel and go back',
    installments: 'Number of instalments',
    cipTitle: 'Payment code (CIP)',
    copy: 'Copy',
    copied: 'Copied',
    howToPay: 'Pay at agents and stores, at a bank branch or in your online banking: choose PagoEfectivo and enter the CIP code.',
    qrHelp: 'Scan this code with your bank or wallet app.',
    sandbox: "Sandbox: simulates the payer's action",
    stateTitle: {
      AUTORIZADO: 'Payment made',
      CANCELADO: 'Payment cancelled',
      EXPIRADO: 'Payment expired',
      other: 'This link no longer takes payments',
    },
    stateBody: {
      AUTORIZADO: 'The merchant has received the confirmation of your payment.',
      CANCELADO: 'Nothing was charged.',
      EXPIRADO: 'The time to pay is over. Nothing was charged.',
      other: 'This payment has already been processed.',
    },
    backToMerchant: 'Back to the merchant',
    notFound: 'We could not find this payment',
    notFoundBody: 'The link is not valid. Check the link the merchant sent you.',
    methods: { BANK_TRANSFER: 'Bank transfer', CUOTEALO: 'Cuotéalo (instalments)', PAGOEFECTIVO: 'PagoEfectivo', QR: 'QR' },
    language: 'Español',
  },
} as const;

export type PayerMessages = (typeof MESSAGES)[PayerLang];

export function payerLang(value: string | string[] | undefined): PayerLang {
  return value === 'en' ? 'en' : 'es';
}
