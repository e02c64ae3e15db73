import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { italianReasons } from './reasons/italian.js';

/**
 * Italian: header names from Italian issuers and processors ("pratica" is a case file,
 * "causale" a reason, "esercente" a merchant); reason labels from the networks' Italian plain
 * names and back-office wording ("disconoscimento" is a cardholder's denial of a payment).
 */
export const italian: LanguageVocabulary = {
  language: 'Italian',
  compounds: false,
  headers: namesByRole({
    claim_key:
      'id pratica, numero pratica, pratica, id contestazione, numero contestazione, riferimento contestazione, rif contestazione, id reclamo, numero reclamo, numero caso, id caso, codice pratica, id disputa',
    case_id: 'id transazione, id operazione, numero operazione, riferimento operazione, numero transazione',
    'card.last4': 'ultime 4 cifre, ultime quattro cifre, ultime 4, carta ultime 4, pan ultime 4',
    card_number: 'numero carta, numero di carta, numero della carta, n carta, num carta, pan',
    'card.network': 'circuito, circuito carta, rete, marchio, circuito di pagamento',
    'card.type': 'tipo carta, tipologia carta, tipologia',
    expiry: 'scadenza, data scadenza, scadenza carta',
    'card.expiry_month': 'mese scadenza',
    'card.expiry_year': 'anno scadenza',
    'cardholder.name': 'titolare, nome titolare, intestatario, cliente, nome cliente, nominativo',
    'cardholder.email': 'posta elettronica, indirizzo email, email cliente',
    'dispute.reason':
      'motivo, causale, motivo contestazione, codice motivo, motivazione, tipo contestazione, causale contestazione, motivo reclamo',
    'dispute.date':
      'data apertura, aperta il, aperto il, data contestazione, data reclamo, data disputa, data segnalazione, data denuncia, data apertura pratica',
    'transaction.date': 'data operazione, data transazione, data, data acquisto, data contabile, data pagamento',
    'transaction.amount': 'importo, importo operazione, importo transazione',
    'dispute.amount': 'importo contestato, importo in contestazione, importo reclamato',
    'transaction.currency': 'valuta, codice valuta',
    'transaction.arn': 'riferimento acquirer, riferimento acquirente',
    'merchant.name': 'esercente, nome esercente, commerciante, negozio, punto vendita, ragione sociale esercente',
    'merchant.category_code': 'codice categoria esercente, categoria esercente, categoria merceologica',
    'issuer_evidence.card.is_active': 'carta attiva, attiva',
    'issuer_evidence.fraud.was_reported': 'frode segnalata, denuncia presentata, denuncia sporta',
    'issuer_evidence.cardholder_explanation':
      'dichiarazione, dichiarazione titolare, dichiarazione cliente, spiegazione, commento, commenti, descrizione, racconto',
    evidence: 'allegato, allegati, documenti, ricevuta, giustificativo',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'data limite, termine',
    card_number: 'numero carta, numero di carta',
    'dispute.amount': 'contestato',
    'dispute.date': 'data apertura, data contestazione, data reclamo, data segnalazione',
    'issuer_evidence.cardholder_explanation': 'dichiarazione, spiegazione',
    'transaction.currency': 'valuta',
    'transaction.amount': 'importo',
    'dispute.reason': 'motivo, causale',
    'merchant.name': 'esercente',
    'card.network': 'circuito',
    'cardholder.name': 'titolare',
  }),
  reasons: italianReasons,
  stopWords: wordsOf(
    'il lo la i gli le di del dello della dei degli delle da dal dalla con per su e o un uno una al alla nel nella a ad in è',
  ),
};
