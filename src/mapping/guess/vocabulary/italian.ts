import type { LanguageVocabulary } from './types.js';

/**
 * Italian: header names from Italian issuers and processors ("pratica" is a case file,
 * "causale" a reason, "esercente" a merchant); reason labels from the networks' Italian plain
 * names and back-office wording ("disconoscimento" is a cardholder's denial of a payment).
 */
export const italian: LanguageVocabulary = {
  language: 'Italian',
  compounds: false,
  headers: {
    claim_key: ['id pratica', 'numero pratica', 'pratica', 'id contestazione', 'numero contestazione', 'riferimento contestazione', 'rif contestazione', 'id reclamo', 'numero reclamo', 'numero caso', 'id caso', 'codice pratica', 'id disputa'],
    case_id: ['id transazione', 'id operazione', 'numero operazione', 'riferimento operazione', 'numero transazione'],
    'card.last4': ['ultime 4 cifre', 'ultime quattro cifre', 'ultime 4', 'carta ultime 4', 'pan ultime 4'],
    'card.network': ['circuito', 'circuito carta', 'rete', 'marchio', 'circuito di pagamento'],
    'card.type': ['tipo carta', 'tipologia carta', 'tipologia'],
    expiry: ['scadenza', 'data scadenza', 'scadenza carta'],
    'card.expiry_month': ['mese scadenza'],
    'card.expiry_year': ['anno scadenza'],
    'cardholder.name': ['titolare', 'nome titolare', 'intestatario', 'cliente', 'nome cliente', 'nominativo'],
    'cardholder.email': ['posta elettronica', 'indirizzo email', 'email cliente'],
    'dispute.reason': ['motivo', 'causale', 'motivo contestazione', 'codice motivo', 'motivazione', 'tipo contestazione', 'causale contestazione', 'motivo reclamo'],
    'dispute.date': ['data apertura', 'aperta il', 'aperto il', 'data contestazione', 'data reclamo', 'data disputa', 'data segnalazione', 'data denuncia', 'data apertura pratica'],
    'transaction.date': ['data operazione', 'data transazione', 'data', 'data acquisto', 'data contabile', 'data pagamento'],
    'transaction.amount': ['importo', 'importo operazione', 'importo transazione'],
    'dispute.amount': ['importo contestato', 'importo in contestazione', 'importo reclamato'],
    'transaction.currency': ['valuta', 'codice valuta'],
    'transaction.arn': ['riferimento acquirer', 'riferimento acquirente'],
    'merchant.name': ['esercente', 'nome esercente', 'commerciante', 'negozio', 'punto vendita', 'ragione sociale esercente'],
    'merchant.category_code': ['codice categoria esercente', 'categoria esercente', 'categoria merceologica'],
    'issuer_evidence.card.is_active': ['carta attiva', 'attiva'],
    'issuer_evidence.fraud.was_reported': ['frode segnalata', 'denuncia presentata', 'denuncia sporta'],
    'issuer_evidence.cardholder_explanation': ['dichiarazione', 'dichiarazione titolare', 'dichiarazione cliente', 'spiegazione', 'commento', 'commenti', 'descrizione', 'racconto'],
    evidence: ['allegato', 'allegati', 'documenti', 'ricevuta', 'giustificativo'],
  },
  headerWords: {
    'dispute.amount': ['contestato'],
    'dispute.date': ['data apertura', 'data contestazione', 'data reclamo', 'data segnalazione'],
    'issuer_evidence.cardholder_explanation': ['dichiarazione', 'spiegazione'],
    'transaction.currency': ['valuta'],
    'transaction.amount': ['importo'],
    'dispute.reason': ['motivo', 'causale'],
    'merchant.name': ['esercente'],
    'card.network': ['circuito'],
    'cardholder.name': ['titolare'],
  },
  reasons: {
    fraud: [
      'frode', 'transazione fraudolenta', 'uso fraudolento', 'utilizzo fraudolento', 'frode carta non presente', 'frode carta presente', 'altra frode', 'disconoscimento',
      'operazione disconosciuta', 'operazione non autorizzata', 'pagamento non autorizzato', 'non autorizzata dal titolare', 'operazione non riconosciuta', 'non riconosciuto',
      'carta smarrita', 'carta rubata', 'furto o smarrimento', 'carta clonata', 'clonazione', 'furto di identità',
    ],
    invalid_authorization: ['autorizzazione mancante', 'assenza di autorizzazione', 'autorizzazione negata', 'autorizzazione rifiutata', 'autorizzazione scaduta', 'autorizzazione non valida'],
    product_not_received: [
      'non ricevuto', 'non arrivato', 'mai arrivato', 'merce non consegnata', 'mancata consegna', 'prodotto non consegnato', 'servizio non reso', 'servizio non erogato', 'beni o servizi non ricevuti',
      'ordine non ricevuto', 'mancata ricezione',
    ],
    product_not_as_described: [
      'non conforme', 'non conforme alla descrizione', 'prodotto difettoso', 'difettoso', 'danneggiato', 'merce danneggiata', 'prodotto non conforme',
      'qualità non conforme', 'diverso da quanto descritto',
    ],
    credit_not_processed: [
      'rimborso non effettuato', 'rimborso mancato', 'mancato rimborso', 'rimborso non accreditato', 'accredito non ricevuto', 'storno non effettuato', 'nota di credito non ricevuta', 'rimborso non arrivato',
      'credito non elaborato',
    ],
    subscription_canceled: [
      'abbonamento cancellato', 'abbonamento annullato', 'abbonamento disattivato', 'pagamento ricorrente annullato', 'addebito ricorrente dopo disdetta', 'addebito dopo disdetta',
      'disdetta abbonamento', 'ricorrente annullato',
    ],
    duplicate_charge: ['addebito duplicato', 'doppio pagamento', 'doppia transazione', 'transazione duplicata', 'addebitato due volte', 'duplicato', 'pagato con altro mezzo'],
    incorrect_amount: ['importo non corretto', 'importo sbagliato', 'importo diverso', 'importo errato addebitato', 'differenza di importo', 'importo alterato'],
    cash_not_received: [
      'ATM', 'sportello automatico', 'prelievo non erogato', 'contante non erogato', 'contanti non ricevuti', 'mancata erogazione contanti',
      'prelievo non riuscito', 'erogazione parziale',
    ],
    canceled_or_returned: ['ordine cancellato', 'prenotazione annullata', 'prenotazione cancellata', 'servizio annullato', 'merce restituita', 'reso merce', 'prodotto restituito', 'acquisto annullato'],
    product_counterfeit: ['contraffazione', 'merce contraffatta', 'prodotto falso', 'articolo contraffatto', 'falso', 'imitazione'],
    other: ['altro', 'altri', 'altro motivo', 'varie'],
  },
  stopWords: ['il', 'lo', 'la', 'i', 'gli', 'le', 'di', 'del', 'dello', 'della', 'dei', 'degli', 'delle', 'da', 'dal', 'dalla', 'con', 'per', 'su', 'e', 'o', 'un', 'uno', 'una', 'al', 'alla', 'nel', 'nella', 'a', 'ad', 'in', 'è'],
};
