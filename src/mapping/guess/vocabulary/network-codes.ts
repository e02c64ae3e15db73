import type { DisputeReason } from './types.js';

/**
 * Reason codes as the card networks publish them, with their plain names: what an export's
 * reason column holds when the issuer copies the network's code. `reason` is the v2 reason the
 * code's disputes are filed under; undefined where one code covers several reasons (Mastercard
 * 4853 "Cardholder Dispute") or none (late presentment): those stay a person's decision.
 */
export interface NetworkCode {
  readonly network: 'Visa' | 'Mastercard' | 'American Express' | 'Discover';
  readonly name: string;
  readonly reason: DisputeReason | undefined;
}

const visa = (name: string, reason: DisputeReason | undefined): NetworkCode => ({ network: 'Visa', name, reason });
const mastercard = (name: string, reason: DisputeReason | undefined): NetworkCode => ({
  network: 'Mastercard',
  name,
  reason,
});
const amex = (name: string, reason: DisputeReason | undefined): NetworkCode => ({
  network: 'American Express',
  name,
  reason,
});
const discover = (name: string, reason: DisputeReason | undefined): NetworkCode => ({
  network: 'Discover',
  name,
  reason,
});

/** Keyed by the code in upper case. Visa Claims Resolution codes keep their dots. */
export const networkCodes: Readonly<Record<string, NetworkCode>> = {
  '10.1': visa('EMV Liability Shift Counterfeit Fraud', 'fraud'),
  '10.2': visa('EMV Liability Shift Non-Counterfeit Fraud', 'fraud'),
  '10.3': visa('Other Fraud – Card-Present Environment', 'fraud'),
  '10.4': visa('Other Fraud – Card-Absent Environment', 'fraud'),
  '10.5': visa('Visa Fraud Monitoring Program', 'fraud'),
  '11.1': visa('Card Recovery Bulletin', 'invalid_authorization'),
  '11.2': visa('Declined Authorization', 'invalid_authorization'),
  '11.3': visa('No Authorization', 'invalid_authorization'),
  '12.1': visa('Late Presentment', undefined),
  '12.2': visa('Incorrect Transaction Code', undefined),
  '12.3': visa('Incorrect Currency', undefined),
  '12.4': visa('Incorrect Account Number', undefined),
  '12.5': visa('Incorrect Amount', 'incorrect_amount'),
  '12.6': visa('Duplicate Processing/Paid by Other Means', 'duplicate_charge'),
  '12.6.1': visa('Duplicate Processing', 'duplicate_charge'),
  '12.6.2': visa('Paid by Other Means', 'duplicate_charge'),
  '12.7': visa('Invalid Data', undefined),
  '13.1': visa('Merchandise/Services Not Received', 'product_not_received'),
  '13.2': visa('Cancelled Recurring Transaction', 'subscription_canceled'),
  '13.3': visa('Not as Described or Defective Merchandise/Services', 'product_not_as_described'),
  '13.4': visa('Counterfeit Merchandise', 'product_counterfeit'),
  '13.5': visa('Misrepresentation', undefined),
  '13.6': visa('Credit Not Processed', 'credit_not_processed'),
  '13.7': visa('Cancelled Merchandise/Services', 'canceled_or_returned'),
  '13.8': visa('Original Credit Transaction Not Accepted', undefined),
  '13.9': visa('Non-Receipt of Cash or Load Transaction Value', 'cash_not_received'),
  '4807': mastercard('Warning Bulletin File', 'invalid_authorization'),
  '4808': mastercard('Authorization-Related Chargeback', 'invalid_authorization'),
  '4812': mastercard('Account Number Not on File', undefined),
  '4831': mastercard('Transaction Amount Differs', 'incorrect_amount'),
  '4834': mastercard('Point-of-Interaction Error (Duplicate Processing)', 'duplicate_charge'),
  '4837': mastercard('No Cardholder Authorization', 'fraud'),
  '4840': mastercard('Fraudulent Processing of Transactions', 'fraud'),
  '4841': mastercard('Cancelled Recurring or Digital Goods Transactions', 'subscription_canceled'),
  '4842': mastercard('Late Presentment', undefined),
  '4849': mastercard('Questionable Merchant Activity', undefined),
  '4853': mastercard('Cardholder Dispute', undefined),
  '4854': mastercard('Cardholder Dispute – Not Elsewhere Classified', undefined),
  '4855': mastercard('Goods or Services Not Provided', 'product_not_received'),
  '4859': mastercard('Addendum, No-Show, or ATM Dispute', undefined),
  '4860': mastercard('Credit Not Processed', 'credit_not_processed'),
  '4863': mastercard('Cardholder Does Not Recognize – Potential Fraud', 'fraud'),
  '4870': mastercard('Chip Liability Shift', 'fraud'),
  '4871': mastercard('Chip/PIN Liability Shift – Lost/Stolen/Never Received Issue', 'fraud'),
  A01: amex('Charge Amount Exceeds Authorization Amount', undefined),
  A02: amex('No Valid Authorization', 'invalid_authorization'),
  A08: amex('Authorization Approval Expired', 'invalid_authorization'),
  C02: amex('Credit Not Processed', 'credit_not_processed'),
  C04: amex('Goods/Services Returned or Refused', 'canceled_or_returned'),
  C05: amex('Goods/Services Cancelled', 'canceled_or_returned'),
  C08: amex('Goods/Services Not Received or Only Partially Received', 'product_not_received'),
  C14: amex('Paid by Other Means', 'duplicate_charge'),
  C18: amex('"No Show" or CARDeposit Cancelled', 'canceled_or_returned'),
  C28: amex('Cancelled Recurring Billing', 'subscription_canceled'),
  C31: amex('Goods/Services Not as Described', 'product_not_as_described'),
  C32: amex('Goods/Services Damaged or Defective', 'product_not_as_described'),
  F10: amex('Missing Imprint', 'fraud'),
  F14: amex('Missing Signature', 'fraud'),
  F24: amex('No Card Member Authorization', 'fraud'),
  F29: amex('Card Not Present', 'fraud'),
  F30: amex('EMV Counterfeit', 'fraud'),
  F31: amex('EMV Lost/Stolen/Non-Received', 'fraud'),
  P05: amex('Incorrect Charge Amount', 'incorrect_amount'),
  P07: amex('Late Submission', undefined),
  P08: amex('Duplicate Charge', 'duplicate_charge'),
  P23: amex('Currency Discrepancy', undefined),
  UA01: discover('Fraud – Card Present Transaction', 'fraud'),
  UA02: discover('Fraud – Card Not Present Transaction', 'fraud'),
  UA05: discover('Fraud – Chip Counterfeit Transaction', 'fraud'),
  UA06: discover('Fraud – Chip and PIN Transaction', 'fraud'),
  RN2: discover('Credit Not Received', 'credit_not_processed'),
};

/**
 * Codes that are a network's only when they are the whole label: two letters mean too many
 * things inside a sentence ("DP" in "DP 123"), but a column of them is Discover's.
 */
export const wholeLabelCodes: Readonly<Record<string, NetworkCode>> = {
  DP: discover('Duplicate Processing', 'duplicate_charge'),
  NF: discover('Non-Receipt of Cash from ATM', 'cash_not_received'),
  RG: discover('Non-Receipt of Goods, Services or Cash', 'product_not_received'),
  RM: discover('Quality Discrepancies', 'product_not_as_described'),
};

/**
 * Issuers' own abbreviations, as whole labels. Left out on purpose: CNP, which is card not
 * present (fraud) at one issuer and credit not processed at the next; CR (credit? card?) and
 * NA (not available?) likewise.
 */
export const issuerAbbreviations: Readonly<
  Record<string, { readonly reason: DisputeReason; readonly meaning: string }>
> = {
  FR: { reason: 'fraud', meaning: 'fraud' },
  FRD: { reason: 'fraud', meaning: 'fraud' },
  NR: { reason: 'product_not_received', meaning: 'not received' },
  NRM: { reason: 'product_not_received', meaning: 'non-receipt of merchandise' },
  SNR: { reason: 'product_not_received', meaning: 'services not rendered' },
  NAD: { reason: 'product_not_as_described', meaning: 'not as described' },
  DUP: { reason: 'duplicate_charge', meaning: 'duplicate' },
  DUPL: { reason: 'duplicate_charge', meaning: 'duplicate' },
};
