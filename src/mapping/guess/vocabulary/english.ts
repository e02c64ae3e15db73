import type { LanguageVocabulary } from './types.js';
import { namesByRole, wordsOf } from './word-lists.js';
import { englishReasons } from './reasons/english.js';

/**
 * English: header names from UK and US issuers' back offices; reason labels from the networks'
 * plain names (Visa Claims Resolution, Mastercard chargeback guide, Amex, Discover) and the
 * shorter wording issuers and their customers use.
 */
export const english: LanguageVocabulary = {
  language: 'English',
  compounds: false,
  headers: namesByRole({
    claim_key:
      'dispute ref, dispute reference, dispute id, dispute number, claim ref, claim reference, claim id, claim number, case ref, case reference, case number, chargeback id, chargeback ref, chargeback reference, chargeback number',
    case_id: 'transaction ref, transaction reference, transaction id, txn id, txn ref, case id, item id',
    'card.last4': 'last4, last 4, card last4, card last 4, last four, card last four, pan last4, last 4 digits',
    // The full card number (cardholder data): only its last four digits are ever mapped (card.last4, last4: true).
    card_number: 'card number, card no, card num, card nr, pan, primary account number, full pan, card pan, cardnumber',
    'card.network': 'network, card network, scheme, card scheme, brand, card brand',
    'card.type': 'card type, type of card, funding, funding type',
    expiry: 'expiry, card expiry, expiry date, exp date, expiration, expiration date, valid thru, valid through, exp',
    'card.expiry_month': 'expiry month, exp month, card expiry month',
    'card.expiry_year': 'expiry year, exp year, card expiry year',
    'cardholder.name': 'cardholder, cardholder name, card holder, card holder name, customer name, name',
    'cardholder.email': 'email, e mail, cardholder email, email address, customer email',
    'dispute.reason':
      'reason, reason code, dispute reason, chargeback reason, dispute reason code, claim reason, reason description',
    'dispute.date':
      'dispute date, date of dispute, claim date, chargeback date, opened, opened on, opened date, date opened, open date, opening date, reported date, date reported, reported on, dispute opened, dispute open date, case opened, case open date, date raised, raised on, claim opened',
    'transaction.date': 'transaction date, txn date, purchase date, date, posting date, post date',
    'transaction.amount': 'amount, transaction amount, txn amount, purchase amount',
    'dispute.amount': 'disputed amount, dispute amount, chargeback amount, claim amount',
    'transaction.currency': 'currency, transaction currency, currency code, ccy, cur',
    'transaction.arn': 'arn, acquirer reference number, acquirer reference, acquirer ref',
    'merchant.name': 'merchant, merchant name, store, shop, payee',
    'merchant.category_code': 'mcc, merchant category code, category code, merchant category',
    'issuer_evidence.card.is_active': 'card active, is active, card is active, active',
    'issuer_evidence.fraud.was_reported': 'fraud reported, fraud was reported, reported as fraud, police report',
    'issuer_evidence.cardholder_explanation':
      'cardholder statement, statement, cardholder explanation, explanation, comment, comments, description, customer statement, cardholder comments, cardholder declaration, declaration, narrative, cardholder narrative, dispute description, claim description, customer comments, cardholder letter',
    evidence:
      'receipt, receipt file, evidence, evidence file, attachment, attachments, files, documents, correspondence, correspondence files',
  }),
  headerWords: namesByRole({
    // A date to answer by, never the transaction's (assign-roles.ts).
    deadline: 'deadline, due date, due by, dispute due, response due, respond by, reply by',
    card_number: 'card number, card no, pan',
    // "Dispute Settlement Currency Amount": the words apart, in this order (header-names.ts).
    'dispute.amount': 'disputed amount, chargeback amount, dispute * amount, chargeback * amount',
    'dispute.date':
      'dispute date, dispute * date, dispute time, chargeback date, claim date, opened, opening date, open date, date raised',
    'issuer_evidence.cardholder_explanation':
      'cardholder statement, customer statement, explanation, narrative, declaration',
    'transaction.arn': 'arn, acquirer reference',
    'card.last4': 'last4, last 4, last four',
    expiry: 'expiry, expiration',
    'transaction.currency': 'currency',
    'transaction.amount': 'amount',
    'cardholder.email': 'email, e mail',
    'dispute.reason': 'reason',
    'merchant.name': 'merchant',
    'card.network': 'network, scheme, brand',
    'cardholder.name': 'cardholder, card holder',
  }),
  reasons: englishReasons,
  stopWords: wordsOf('the a an of by for to on in at with from and or is was been has my this'),
};
