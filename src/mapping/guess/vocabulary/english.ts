import type { LanguageVocabulary } from './types.js';

/**
 * English: header names from UK and US issuers' back offices; reason labels from the networks'
 * plain names (Visa Claims Resolution, Mastercard chargeback guide, Amex, Discover) and the
 * shorter wording issuers and their customers use.
 */
export const english: LanguageVocabulary = {
  language: 'English',
  compounds: false,
  headers: {
    claim_key: ['dispute ref', 'dispute reference', 'dispute id', 'dispute number', 'claim ref', 'claim reference', 'claim id', 'claim number', 'case ref', 'case reference', 'case number', 'chargeback id', 'chargeback ref', 'chargeback reference', 'chargeback number'],
    case_id: ['transaction ref', 'transaction reference', 'transaction id', 'txn id', 'txn ref', 'case id', 'item id'],
    'card.last4': ['last4', 'last 4', 'card last4', 'card last 4', 'last four', 'card last four', 'pan last4', 'last 4 digits'],
    'card.network': ['network', 'card network', 'scheme', 'card scheme', 'brand', 'card brand'],
    'card.type': ['card type', 'type of card', 'funding', 'funding type'],
    expiry: ['expiry', 'card expiry', 'expiry date', 'exp date', 'expiration', 'expiration date', 'valid thru', 'valid through', 'exp'],
    'card.expiry_month': ['expiry month', 'exp month', 'card expiry month'],
    'card.expiry_year': ['expiry year', 'exp year', 'card expiry year'],
    'cardholder.name': ['cardholder', 'cardholder name', 'card holder', 'card holder name', 'customer name', 'name'],
    'cardholder.email': ['email', 'e mail', 'cardholder email', 'email address', 'customer email'],
    'dispute.reason': ['reason', 'reason code', 'dispute reason', 'chargeback reason', 'dispute reason code', 'claim reason', 'reason description'],
    'dispute.date': [
      'dispute date', 'date of dispute', 'claim date', 'chargeback date', 'opened', 'opened on', 'opened date', 'date opened', 'open date', 'opening date',
      'reported date', 'date reported', 'reported on', 'dispute opened', 'dispute open date', 'case opened', 'case open date', 'date raised', 'raised on', 'claim opened',
    ],
    'transaction.date': ['transaction date', 'txn date', 'purchase date', 'date', 'posting date', 'post date'],
    'transaction.amount': ['amount', 'transaction amount', 'txn amount', 'purchase amount'],
    'dispute.amount': ['disputed amount', 'dispute amount', 'chargeback amount', 'claim amount'],
    'transaction.currency': ['currency', 'transaction currency', 'currency code', 'ccy', 'cur'],
    'transaction.arn': ['arn', 'acquirer reference number', 'acquirer reference', 'acquirer ref'],
    'merchant.name': ['merchant', 'merchant name', 'store', 'shop', 'payee'],
    'merchant.category_code': ['mcc', 'merchant category code', 'category code', 'merchant category'],
    'issuer_evidence.card.is_active': ['card active', 'is active', 'card is active', 'active'],
    'issuer_evidence.fraud.was_reported': ['fraud reported', 'fraud was reported', 'reported as fraud', 'police report'],
    'issuer_evidence.cardholder_explanation': [
      'cardholder statement', 'statement', 'cardholder explanation', 'explanation', 'comment', 'comments', 'description', 'customer statement', 'cardholder comments',
      'cardholder declaration', 'declaration', 'narrative', 'cardholder narrative', 'dispute description', 'claim description', 'customer comments', 'cardholder letter',
    ],
    evidence: ['receipt', 'receipt file', 'evidence', 'evidence file', 'attachment', 'attachments', 'files', 'documents', 'correspondence', 'correspondence files'],
  },
  headerWords: {
    'dispute.amount': ['disputed amount', 'chargeback amount'],
    'dispute.date': ['dispute date', 'chargeback date', 'claim date', 'opened', 'opening date', 'open date', 'date raised'],
    'issuer_evidence.cardholder_explanation': ['cardholder statement', 'customer statement', 'explanation', 'narrative', 'declaration'],
    'transaction.arn': ['arn', 'acquirer reference'],
    'card.last4': ['last4', 'last 4', 'last four'],
    expiry: ['expiry', 'expiration'],
    'transaction.currency': ['currency'],
    'transaction.amount': ['amount'],
    'cardholder.email': ['email', 'e mail'],
    'dispute.reason': ['reason'],
    'merchant.name': ['merchant'],
    'card.network': ['network', 'scheme', 'brand'],
    'cardholder.name': ['cardholder', 'card holder'],
  },
  reasons: {
    fraud: [
      'fraud', 'fraudulent transaction', 'fraudulent use', 'card fraud', 'Other Fraud – Card-Absent Environment', 'Other Fraud – Card-Present Environment',
      'EMV Liability Shift Counterfeit Fraud', 'EMV Liability Shift Non-Counterfeit Fraud', 'Fraud Monitoring Program', 'No Cardholder Authorization',
      'Cardholder Does Not Recognize – Potential Fraud', 'Fraudulent Processing of Transactions', 'Chip Liability Shift', 'No Card Member Authorization',
      'card-not-present fraud', 'card-present fraud', 'card not present', 'unauthorised transaction', 'unauthorized transaction', 'unauthorised', 'unauthorized',
      'not authorised by the cardholder', 'transaction not recognised', 'not recognised', 'unrecognised transaction', 'lost or stolen card', 'lost card', 'stolen card',
      'identity theft', 'account takeover', 'counterfeit card', 'skimming', 'missing imprint', 'missing signature',
    ],
    invalid_authorization: [
      'No Authorization', 'Declined Authorization', 'Authorization-Related Chargeback', 'Card Recovery Bulletin', 'Warning Bulletin File', 'No Valid Authorization',
      'Authorization Approval Expired', 'authorization declined', 'invalid authorization', 'expired authorization', 'authorisation not obtained', 'authorization noncompliance',
    ],
    product_not_received: [
      'Merchandise/Services Not Received', 'Goods or Services Not Provided', 'Goods/Services Not Received or Only Partially Received', 'Non-Receipt of Goods or Services',
      'not received', 'goods not received', 'merchandise not received', 'item not received', 'order not received', 'service not provided', 'services not rendered',
      'non-receipt', 'non-delivery', 'not delivered', 'never arrived', 'goods not delivered',
    ],
    product_not_as_described: [
      'Not as Described or Defective Merchandise/Services', 'Goods/Services Not as Described', 'Goods/Services Damaged or Defective', 'Quality Discrepancies',
      'not as described', 'defective', 'defective merchandise', 'damaged', 'damaged goods', 'faulty', 'faulty goods', 'quality dispute', 'misrepresentation',
      'not as advertised', 'wrong item', 'broken',
    ],
    credit_not_processed: [
      'Credit Not Processed', 'Credit Not Received', 'refund not processed', 'refund not received', 'refund not issued', 'credit not issued', 'missing refund',
      'refund promised', 'refund outstanding', 'credit not posted', 'refund not credited',
    ],
    subscription_canceled: [
      'Cancelled Recurring Transaction', 'Cancelled Recurring', 'Cancelled Recurring or Digital Goods Transactions', 'Cancelled Recurring Billing',
      'recurring payment cancelled', 'subscription cancelled', 'cancelled subscription', 'charged after cancellation', 'membership cancelled', 'continuous authority cancelled',
    ],
    duplicate_charge: [
      'Duplicate Processing', 'Paid by Other Means', 'Duplicate Processing/Paid by Other Means', 'duplicate charge', 'duplicate transaction', 'duplicate payment', 'duplicate',
      'charged twice', 'double charge', 'double charged', 'debited twice', 'billed twice',
    ],
    incorrect_amount: [
      'Incorrect Amount', 'Transaction Amount Differs', 'Incorrect Charge Amount', 'Altered Amount', 'wrong amount', 'amount differs', 'overcharged', 'amount discrepancy',
      'incorrect transaction amount',
    ],
    cash_not_received: [
      'ATM cash not dispensed', 'Non-Receipt of Cash or Load Transaction Value', 'Non-Receipt of Cash from ATM', 'cash not dispensed', 'cash not received',
      'ATM dispute', 'ATM', 'partial dispense', 'ATM withdrawal not received',
    ],
    canceled_or_returned: [
      'Cancelled Merchandise/Services', 'Goods/Services Returned or Refused', 'Goods/Services Cancelled', 'merchandise returned', 'returned goods', 'goods returned',
      'order cancelled', 'cancelled order', 'booking cancelled', 'cancelled reservation', 'service cancelled', 'no-show',
    ],
    product_counterfeit: ['Counterfeit Merchandise', 'counterfeit goods', 'counterfeit product', 'counterfeit item', 'fake goods', 'fake product', 'replica'],
    other: ['other', 'others', 'other reason', 'miscellaneous', 'misc'],
  },
  stopWords: ['the', 'a', 'an', 'of', 'by', 'for', 'to', 'on', 'in', 'at', 'with', 'from', 'and', 'or', 'is', 'was', 'been', 'has', 'my', 'this'],
};
