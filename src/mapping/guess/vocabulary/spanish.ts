import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { spanishReasons } from './reasons/spanish.js';

/**
 * Spanish: header names from Spanish and Latin American issuers; reason labels from the
 * networks' Spanish plain names and back-office wording ("contracargo", "cargo no reconocido",
 * "cajero" for a cash machine).
 */
export const spanish: LanguageVocabulary = {
  language: 'Spanish',
  compounds: false,
  headers: namesByRole({
    claim_key:
      'referencia disputa, referencia de la disputa, numero de disputa, id disputa, numero de caso, expediente, numero de reclamacion, numero de expediente, id reclamacion, numero de contracargo, folio',
    case_id: 'id transaccion, referencia transaccion, numero de transaccion, numero de operacion, referencia operacion',
    'card.last4': 'ultimos 4, ultimos 4 digitos, ultimos cuatro, tarjeta ultimos 4, terminacion tarjeta',
    card_number: 'numero de tarjeta, numero tarjeta, no de tarjeta, n tarjeta, num tarjeta, pan, numero de la tarjeta',
    'card.network': 'red, red de tarjeta, marca, marca tarjeta, franquicia, emisor de marca',
    'card.type': 'tipo de tarjeta, tipo tarjeta',
    expiry: 'fecha de caducidad, caducidad, vencimiento, fecha de vencimiento, fecha vencimiento',
    'card.expiry_month': 'mes de caducidad, mes vencimiento',
    'card.expiry_year': 'ano de caducidad, ano vencimiento',
    'cardholder.name':
      'titular, nombre del titular, nombre titular, tarjetahabiente, nombre, cliente, nombre del cliente',
    'cardholder.email': 'correo, correo electronico, email del titular',
    'dispute.reason':
      'motivo, codigo de motivo, motivo de la disputa, razon, motivo de reclamacion, motivo del contracargo, causa, tipo de reclamacion',
    'dispute.date':
      'fecha de la disputa, fecha disputa, fecha de reclamacion, fecha de apertura, abierto el, fecha de alta, fecha de la reclamacion, fecha de contracargo, fecha de denuncia, fecha de aviso',
    'transaction.date':
      'fecha de transaccion, fecha transaccion, fecha de operacion, fecha de compra, fecha, fecha de movimiento',
    'transaction.amount':
      'importe, monto, importe transaccion, importe de la transaccion, monto transaccion, importe operacion',
    'dispute.amount': 'importe disputado, monto disputado, importe reclamado, importe de la disputa, monto reclamado',
    'transaction.currency': 'moneda, divisa, codigo de moneda',
    'transaction.arn': 'referencia adquirente, numero de referencia del adquirente',
    'merchant.name': 'comercio, nombre del comercio, nombre comercio, establecimiento, comerciante',
    'merchant.category_code': 'codigo de categoria, categoria del comercio, codigo mcc',
    'issuer_evidence.card.is_active': 'tarjeta activa, activa',
    'issuer_evidence.fraud.was_reported': 'fraude reportado, fraude denunciado, denuncia presentada',
    'issuer_evidence.cardholder_explanation':
      'declaracion, explicacion, comentario, comentarios, descripcion, declaracion del titular, declaracion titular, relato, observaciones, manifestacion del titular, descripcion del cliente',
    evidence: 'comprobante, adjunto, adjuntos, documentos, justificante',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'fecha limite, fecha tope, plazo',
    card_number: 'numero de tarjeta, numero tarjeta',
    'dispute.amount': 'disputado, reclamado',
    'dispute.date': 'apertura, fecha de reclamacion, fecha de la disputa',
    'issuer_evidence.cardholder_explanation': 'declaracion, explicacion, relato',
    'transaction.currency': 'moneda, divisa',
    'transaction.amount': 'importe, monto',
    'dispute.reason': 'motivo',
    'merchant.name': 'comercio',
    'cardholder.name': 'titular',
  }),
  reasons: spanishReasons,
  stopWords: wordsOf('el la los las del de un una por para con en y o al se lo es fue'),
};
