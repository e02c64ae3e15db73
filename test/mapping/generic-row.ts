/**
 * A whole row of the generic export (mappings/generic.yaml's columns), every cell valid: what the
 * mapping tests map, each changing the cells it is about.
 */
export function genericRow(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    dispute_ref: 'D-100',
    transaction_ref: 'T1',
    card_last4: '4242',
    card_network: 'VISA',
    card_type: 'Credit',
    card_expiry: '09/2028',
    cardholder_name: 'Maya Lindqvist',
    cardholder_email: 'maya@example.com',
    reason_code: 'FR',
    dispute_date: '2026-03-15',
    card_active: 'no',
    fraud_reported: 'yes',
    cardholder_statement: 'not me',
    disputed_amount: '1234.56',
    currency: 'usd',
    merchant_name: 'Voltmart',
    mcc: '5732',
    transaction_amount: '1234.56',
    transaction_date: '2026-03-01',
    arn: '74537604152001234509876',
    receipt_file: 'receipts/d-100.pdf',
    correspondence_files: 'mail/1.png; mail/2.png',
    ...overrides,
  };
}
