import type { DeclineClass } from '@/server/core/domain/decline-class';

// Niubiz's action codes (`ACTION_CODE`, `order.actionCode`) and the class each means to routing
// (docs/ORCHESTRATION.md 1). Codes and meanings: research §12 — [PW-PDF] Annex b "Códigos de
// acción (denegaciones)", [odoo] const.ACTION_CODES, [codes-eticket], [codes-new] (provenance
// unverifiable). The research's "suggested class" column is followed, with its `fraud` class
// mapped to `hard` (a lost or stolen card, an antifraud reject: never tried again elsewhere, as
// ORCHESTRATION.md 1 classes 41/43). Where sources conflict (research §18.15–18.18) the PDF's
// meaning wins; the conflict is noted on the line.

/** Approval codes: `000` ([PW-PDF] "El Código de aprobación: 000"); `010` only in [codes-new] (unconfirmed, accepted). */
export const NIUBIZ_APPROVAL_CODES: ReadonlySet<string> = new Set(['000', '010']);

/** A reversal's success carries `actionCode "400"` with `STATUS "Voided"` ([lg], research §6.2): not a decline. */
export const NIUBIZ_REVERSAL_CODE = '400';

export const NIUBIZ_DECLINE_CLASSES: Readonly<Record<string, DeclineClass>> = {
  '00': 'technical', // [odoo] "Revisar registros log"
  '101': 'hard', // Tarjeta vencida
  '102': 'soft', // Contactar con la entidad emisora ([codes-new] says permanent; the PDF's words are generic)
  '104': 'hard', // Operación no permitida para esta tarjeta
  '106': 'hard', // Exceso de intentos de ingreso de clave secreta
  '107': 'soft', // Contactar con la entidad emisora
  '108': 'soft', // Exceso de actividad
  '109': 'technical', // Identificación inválida de establecimiento
  '110': 'hard', // Operación no permitida para esta tarjeta
  '111': 'hard', // Monto supera el valor máximo permitido para operaciones virtuales
  '112': 'sca_required', // Se requiere clave secreta
  '113': 'hard', // Monto no permitido ([odoo], [codes-eticket]; not in the PDF)
  '114': 'hard', // [codes-new] "OPER INVALIDA"
  '116': 'soft', // Fondos insuficientes
  '117': 'sca_required', // Clave secreta incorrecta
  '118': 'hard', // Tarjeta inválida
  '119': 'hard', // Exceso de intentos de ingreso de clave secreta
  '121': 'soft', // Operación denegada
  '122': 'soft', // [codes-new] "DENEGADA"
  '126': 'sca_required', // Clave secreta inválida
  '129': 'hard', // Tarjeta no operativa ("Código de seguridad inválido")
  '151': 'hard', // [codes-new] "TARJETA NO HABIL"
  '159': 'soft', // [codes-new] "REINTENTE"
  '170': 'hard', // [codes-new] "RECHAZADA (170)"
  '180': 'hard', // Tarjeta inválida
  '181': 'hard', // Tarjeta con restricciones de débito
  '182': 'hard', // Tarjeta con restricciones de crédito
  '183': 'technical', // Error de sistema ([codes-new] says permanent; the PDF: "Problemas de comunicación")
  '184': 'technical', // [codes-new] "FALLA CRIPT"
  '190': 'soft', // Contactar con entidad emisora
  '191': 'soft', // Contactar con entidad emisora
  '192': 'soft', // Contactar con entidad emisora
  '199': 'soft', // Operación denegada
  '201': 'hard', // Tarjeta vencida
  '202': 'soft', // Contactar con entidad emisora
  '204': 'hard', // Operación no permitida para esta tarjeta
  '206': 'hard', // Exceso de intentos de ingreso de clave secreta
  '207': 'hard', // Contactar con entidad emisora ([codes-new] permanent)
  '208': 'hard', // Tarjeta perdida (fraud)
  '209': 'hard', // Tarjeta robada (fraud)
  '211': 'hard', // [codes-new] "COMPR INTERN OFF"
  '263': 'technical', // Error en el envío de parámetros
  '264': 'technical', // Entidad emisora no disponible para la autenticación
  '265': 'sca_required', // Clave secreta del tarjetahabiente incorrecta
  '266': 'hard', // Tarjeta vencida
  '279': 'soft', // [codes-new] "DECL. CICLO VIDA"
  '280': 'sca_required', // Clave errónea
  '282': 'hard', // [codes-new] "DECL. POLÍTICAS"
  '283': 'hard', // [codes-new] "DECL. SEGURIDAD" (fraud)
  '290': 'soft', // Contactar con entidad emisora
  '300': 'technical', // Número de pedido duplicado: a new attempt carries a new purchaseNumber
  '306': 'soft', // Contactar con entidad emisora
  '401': 'technical', // Tienda inhabilitada
  '402': 'technical', // Operación denegada ([codes-eticket]: "Tienda con rango de IP no valido")
  '403': 'sca_required', // Tarjeta no autenticada
  '404': 'hard', // Monto supera el valor máximo permitido
  '405': 'soft', // La tarjeta superó la cantidad máxima de transacciones en el día
  '406': 'technical', // La tienda superó la cantidad máxima de transacciones en el día
  '407': 'hard', // Monto no llega al mínimo permitido
  '408': 'hard', // CVV2 no coincide
  '409': 'soft', // CVV2 no procesado por entidad emisora
  '410': 'hard', // CVV2 no procesado por no ingresado
  '411': 'soft', // CVV2 no procesado por entidad emisora
  '412': 'hard', // CVV2 no reconocido por entidad emisora
  '413': 'soft', // Contactar con entidad emisora
  '414': 'soft', // Operación denegada (414–419)
  '415': 'soft',
  '416': 'soft',
  '417': 'soft',
  '418': 'soft',
  '419': 'soft',
  '420': 'hard', // Tarjeta no es VISA
  '421': 'hard', // Contactar con entidad emisora ([codes-new] "BIN riesgoso": fraud)
  '422': 'technical', // El comercio no está configurado para usar este medio de pago
  '423': 'hard', // Se canceló el proceso de pago
  '424': 'hard', // Contactar con entidad emisora ([codes-new] "BIN en lista negra": fraud)
  '425': 'hard', // [codes-eticket] "País emisor incorrecto"
  '427': 'soft', // [codes-new] "Insufficient Funds/Over Credit Limit"
  '428': 'hard', // [codes-new] "Número de tarjeta no es válido"
  '429': 'technical', // [codes-new] "La operación ya está en un depósito"
  '476': 'technical', // [odoo] "La operación ya se encuentra en un depósito"
  '479': 'technical', // [odoo] "Código de comercio no existe o es inválido"
  '480': 'technical', // [codes-new] "Número de orden inválido"
  '499': 'technical', // [odoo] "Bóveda no asignada al establecimiento"
  '665': 'hard', // [codes-new] "Operación denegada. Tarjeta no válida"
  '666': 'technical', // Problemas de comunicación
  '667': 'sca_required', // Transacción sin autenticación (sin respuesta de Verified by Visa)
  '668': 'soft', // Operación denegada
  '669': 'soft', // Operación denegada
  '670': 'hard', // Módulo antifraude (fraud)
  '671': 'hard', // [codes-new] "Cybersource Reject" (fraud)
  '672': 'technical', // Transacción sin respuesta de Antifraude
  '673': 'technical', // Transacción sin respuesta del Autorizador
  '674': 'technical', // Sesión no válida
  '675': 'technical', // Inicialización de transacción
  '676': 'technical', // No activa la opción Revisar Enviar al Autorizador
  '677': 'technical', // Respuesta Antifraude con parámetros no válidos
  '678': 'sca_required', // Valor ECI no válido
  '680': 'soft', // [codes-new] "Transacción denegada"
  '682': 'technical', // Intento de pago fuera del tiempo permitido
  '683': 'technical', // Registro incorrecto de sesión
  '684': 'technical', // Registro incorrecto antifraude
  '685': 'technical', // Registro incorrecto autorizador
  '686': 'technical', // [codes-new] "Transacción no pudo ser procesada"
  '687': 'technical', // [codes-new] "Error de formato"
  '690': 'technical', // [codes-new] "El comercio no tiene permitido autorizar pagos con QR"
  '691': 'technical', // [codes-new] "Contactar con el comercio"
  '692': 'hard', // [codes-new] "Tarjeta vencida"
  '754': 'technical', // Comercio o terminal no válido (observed [odoo demo]; [codes-new] conflicts)
  '760': 'hard', // [codes-new] "OP. NO PERMITIDA"
  '807': 'soft', // [codes-eticket] "Contactar con emisor"
  '900': 'soft', // [codes-eticket] "Contactar con emisor"
  '904': 'technical', // Formato de mensaje erróneo
  '909': 'technical', // Error de sistema
  '910': 'technical', // Error de sistema
  '912': 'technical', // Entidad emisora no disponible (ORCHESTRATION.md 1: issuer unavailable is technical)
  '913': 'technical', // Transmisión duplicada
  '916': 'soft', // Contactar con entidad emisora
  '928': 'soft', // Contactar con entidad emisora
  '940': 'technical', // Transacción anulada previamente
  '941': 'technical', // Transacción ya anulada previamente
  '942': 'technical', // Operación denegada
  '943': 'technical', // Datos originales distintos
  '945': 'technical', // Referencia repetida
  '946': 'technical', // Operación de anulación en proceso
  '947': 'technical', // Comunicación duplicada
  '948': 'soft', // Contactar con entidad emisora
  '949': 'soft', // Contactar con entidad emisora
  '965': 'soft', // Contactar con entidad emisora
  '55': 'hard', // [codes-new] "PIN inválido" (a raw brand code)
  '75': 'hard', // [codes-new] "Exced. Inten. PIN"
  '80': 'soft', // [codes-new] "Trx. Rechazada"
  '83': 'soft', // [codes-new] "DENEGADO 83"
};

/**
 * The class of a Niubiz action code; one the table does not know is `hard`, so an answer nobody
 * understood is never tried again elsewhere (as declineClassOf does).
 */
export function niubizDeclineClass(code: string): DeclineClass {
  return NIUBIZ_DECLINE_CLASSES[code] ?? 'hard';
}
