import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { portugueseReasons } from './reasons/portuguese.js';

/**
 * Portuguese: header names from Brazilian and Portuguese issuers ("bandeira" is the card
 * network, "estabelecimento" the merchant); reason labels from the networks' Portuguese plain
 * names and back-office wording ("estorno" is a refund, "saque" a cash withdrawal).
 */
export const portuguese: LanguageVocabulary = {
  language: 'Portuguese',
  compounds: false,
  headers: namesByRole({
    claim_key:
      'numero do processo, processo, numero da contestacao, id contestacao, protocolo, numero do protocolo, numero do caso, id do caso, referencia da disputa, numero da disputa',
    case_id: 'id da transacao, id transacao, numero da transacao, nsu, referencia da transacao',
    'card.last4': 'ultimos 4 digitos, final do cartao, ultimos quatro digitos, 4 ultimos digitos, final cartao',
    card_number: 'numero do cartao, numero cartao, n do cartao, num cartao, pan',
    'card.network': 'bandeira, bandeira do cartao, rede',
    'card.type': 'tipo de cartao, tipo cartao, modalidade, modalidade do cartao',
    expiry: 'validade, data de validade, validade do cartao',
    'card.expiry_month': 'mes de validade',
    'card.expiry_year': 'ano de validade',
    'cardholder.name': 'titular, nome do titular, portador, nome do portador, cliente, nome do cliente, nome',
    'cardholder.email': 'correio eletronico, email do cliente, endereco de email',
    'dispute.reason':
      'motivo, motivo da contestacao, motivo da disputa, codigo do motivo, razao, motivo do chargeback, tipo de contestacao',
    'dispute.date':
      'data de abertura, aberto em, aberta em, data da contestacao, data da reclamacao, data da disputa, data do chargeback, data do registro, data de registro',
    'transaction.date': 'data da transacao, data da compra, data, data da operacao, data do pagamento',
    'transaction.amount': 'valor, valor da transacao, valor da compra, montante, valor da operacao',
    'dispute.amount': 'valor contestado, valor em disputa, valor reclamado, valor da contestacao',
    'transaction.currency': 'moeda, divisa',
    'transaction.arn': 'referencia do adquirente, referencia adquirente',
    'merchant.name': 'estabelecimento, estabelecimento comercial, lojista, comerciante, loja, nome do estabelecimento',
    'merchant.category_code': 'ramo de atividade, codigo mcc, categoria do estabelecimento',
    'issuer_evidence.card.is_active': 'cartao ativo, ativo',
    'issuer_evidence.fraud.was_reported': 'fraude reportada, fraude comunicada, boletim de ocorrencia',
    'issuer_evidence.cardholder_explanation':
      'declaracao, declaracao do titular, declaracao do cliente, relato, relato do cliente, explicacao, comentario, comentarios, descricao, observacoes',
    evidence: 'anexo, anexos, comprovante, comprovantes',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'prazo, data limite',
    card_number: 'numero do cartao, numero cartao',
    'dispute.amount': 'contestado',
    'dispute.date': 'abertura, data da contestacao, data da reclamacao',
    'issuer_evidence.cardholder_explanation': 'declaracao, relato, explicacao',
    'transaction.currency': 'moeda',
    'transaction.amount': 'valor',
    'dispute.reason': 'motivo',
    'merchant.name': 'estabelecimento',
    'card.network': 'bandeira',
    'cardholder.name': 'titular, portador',
  }),
  reasons: portugueseReasons,
  stopWords: wordsOf('o a os as do da dos das de em na nas nos um uma por pelo pela para com e ou ao foi'),
};
