import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { V1CreateCaseBody } from '../../src/api/schemas/v1.js';
import { genericColumns } from '../import/generate.js';

/**
 * The bank's exports of a night, written so that every cardholder value prune must remove is
 * planted: unique enough to be found in the raw bytes of any file a job wrote (docs/data.md,
 * "Every file, by job"). Values hold no character that CSV, JSON or XML would escape, so each
 * stays one run of bytes wherever it is written.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The export's header: the shipped generic mapping's columns, and the billing address it lacks after the e-mail. */
const billingColumns = ['billing_line1', 'billing_city', 'billing_postal_code', 'billing_country'] as const;
const afterEmail = genericColumns.indexOf('cardholder_email') + 1;
export const exportColumns = [
  ...genericColumns.slice(0, afterEmail),
  ...billingColumns,
  ...genericColumns.slice(afterEmail),
] as const;

export type ExportRow = Record<(typeof exportColumns)[number], string>;

/**
 * mappings/generic.yaml with the cardholder's billing address read too: no shipped mapping reads
 * one, and prune must be shown to remove it.
 */
export async function mappingWithBillingAddress(): Promise<string> {
  const generic = await readFile(join(root, 'mappings/generic.yaml'), 'utf8');
  const emailLine = '  cardholder.email: { column: cardholder_email }\n';
  if (!generic.includes(emailLine)) throw new Error('test: mappings/generic.yaml no longer maps cardholder_email');
  return generic.replace(
    emailLine,
    emailLine +
      '  cardholder.billing_address.line1: { column: billing_line1 }\n' +
      '  cardholder.billing_address.city: { column: billing_city }\n' +
      '  cardholder.billing_address.postal_code: { column: billing_postal_code }\n' +
      '  cardholder.billing_address.country: { column: billing_country }\n',
  );
}

/** One planted cardholder: each value is found in bytes, and in no other value. */
export interface PlantedPerson {
  name: string;
  email: string;
  line1: string;
  city: string;
}

export function plantedPerson(surname: string, number: number): PlantedPerson {
  return {
    name: `Plantedname ${surname}`,
    email: `${surname.toLowerCase()}.${number}@planted.example`,
    line1: `${number} Plantedlane ${surname}`,
    city: `Plantedtown ${surname}`,
  };
}

const personValues = (person: PlantedPerson) => [person.name, person.email, person.line1, person.city];

const statementOf = (ref: string) => `Planted statement ${ref}: the goods never came`;

/** A day `days` before now, as the export writes it (the sandbox's clock is the real time). */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

interface ClaimSpec {
  ref: string;
  reason: 'FR' | 'NR' | 'NAD' | 'CNP' | 'DUP';
  person: PlantedPerson;
  rows: number;
  receipt?: string;
  correspondence?: string;
  /** Cells of the claim's first row replaced, to make it invalid on purpose. */
  firstRow?: Partial<ExportRow>;
}

const networkOf = { FR: 'VISA', NR: 'MASTERCARD', NAD: 'MASTERCARD', CNP: 'VISA', DUP: 'VISA' } as const;

function rowsOf(spec: ClaimSpec, claimNumber: number): ExportRow[] {
  const network = networkOf[spec.reason];
  const fraud = spec.reason === 'FR';
  return Array.from({ length: spec.rows }, (_, index) => {
    const amount = `${String(20 + claimNumber * 7 + index)}.50`;
    const row: ExportRow = {
      dispute_ref: spec.ref,
      transaction_ref: `T${String(index + 1)}`,
      reason_code: spec.reason,
      dispute_date: daysAgo(3),
      cardholder_name: spec.person.name,
      cardholder_email: spec.person.email,
      billing_line1: spec.person.line1,
      billing_city: spec.person.city,
      billing_postal_code: 'ZZ1 1ZZ',
      billing_country: 'GB',
      card_last4: String(4100 + claimNumber),
      card_network: network,
      card_type: 'Credit',
      card_expiry: '09/30',
      card_active: fraud ? 'no' : 'yes',
      fraud_reported: fraud ? 'yes' : '',
      merchant_name: `Merchant ${spec.ref}`,
      mcc: '5732',
      transaction_date: daysAgo(30 + index),
      transaction_amount: amount,
      disputed_amount: amount,
      currency: 'GBP',
      // 23 digits, as Visa and Mastercard issue them; one per transaction.
      arn: `7449215630${String(claimNumber).padStart(4, '0')}${String(index + 1).padStart(9, '0')}`,
      cardholder_statement: statementOf(spec.ref),
      receipt_file: index === 0 ? (spec.receipt ?? '') : '',
      correspondence_files: spec.correspondence ?? '',
    };
    return index === 0 ? { ...row, ...spec.firstRow } : row;
  });
}

/** The bad cell the date check quotes in its message (`got "…"`). */
export const plantedBadDate = 'Planted datecell Wumbleton';
/** What the reviewer types into the claim they fix on the review page. */
export const plantedReviewerNote = 'Planted reviewer note Ostrakon called back';

const northwindInvoice = 'receipts/northwind-invoice-NW-48213.pdf';

/**
 * The night's export: 12 claims of 6 cardholders, 21 rows. Filed but for P-07 (a duplicate
 * charge with no receipt: not_filed), P-11 (a dispute date that is no date: invalid, its other
 * row claim_incomplete; the review fixes it) and P-12 (an amount that is no amount: invalid).
 */
export function nightExport(): { rows: ExportRow[]; planted: string[]; fixedByReview: string; fixRef: string } {
  const [a, b, c, d, e, f] = ['Quixworth', 'Vexbury', 'Zandrop', 'Murgatroyd', 'Fennimaw', 'Ollivex'].map(
    (surname, index) => plantedPerson(surname, index + 1),
  ) as [PlantedPerson, PlantedPerson, PlantedPerson, PlantedPerson, PlantedPerson, PlantedPerson];
  const claims: ClaimSpec[] = [
    { ref: 'P-01', reason: 'FR', person: a, rows: 2 },
    { ref: 'P-02', reason: 'NR', person: a, rows: 2, correspondence: 'correspondence/northwind-support-reply.png' },
    { ref: 'P-03', reason: 'DUP', person: b, rows: 1, receipt: 'receipts/sakuragawa-folio.pdf' },
    { ref: 'P-04', reason: 'NAD', person: b, rows: 2, receipt: northwindInvoice },
    { ref: 'P-05', reason: 'CNP', person: c, rows: 3, receipt: 'receipts/harbour-lane-receipt.jpg' },
    { ref: 'P-06', reason: 'FR', person: c, rows: 1 },
    { ref: 'P-07', reason: 'DUP', person: d, rows: 1 },
    { ref: 'P-08', reason: 'NR', person: d, rows: 2 },
    { ref: 'P-09', reason: 'CNP', person: e, rows: 2, receipt: 'receipts/harbour-lane-receipt.jpg' },
    { ref: 'P-10', reason: 'FR', person: e, rows: 3 },
    {
      ref: 'P-11',
      reason: 'NAD',
      person: f,
      rows: 2,
      receipt: northwindInvoice,
      firstRow: { dispute_date: plantedBadDate },
    },
    { ref: 'P-12', reason: 'FR', person: f, rows: 1, firstRow: { disputed_amount: '84x.99' } },
  ];
  const rows = claims.flatMap((spec, index) => rowsOf(spec, index + 1));
  const planted = [
    ...[a, b, c, d, e, f].flatMap(personValues),
    ...claims.map((spec) => statementOf(spec.ref)),
    plantedBadDate,
  ];
  return { rows, planted, fixedByReview: daysAgo(3), fixRef: 'P-11' };
}

/** The morning's export, delivered as a workbook: 3 claims of 2 cardholders, 4 rows, all filed. */
export function morningExport(): { rows: ExportRow[]; planted: string[] } {
  const g = plantedPerson('Brackenwold', 7);
  const h = plantedPerson('Thistlegrove', 8);
  const claims: ClaimSpec[] = [
    { ref: 'W-01', reason: 'FR', person: g, rows: 2 },
    { ref: 'W-02', reason: 'DUP', person: g, rows: 1, receipt: 'receipts/sakuragawa-folio.pdf' },
    { ref: 'W-03', reason: 'FR', person: h, rows: 1 },
  ];
  return {
    rows: claims.flatMap((spec, index) => rowsOf(spec, 20 + index)),
    planted: [...personValues(g), ...personValues(h), ...claims.map((spec) => statementOf(spec.ref))],
  };
}

/**
 * Version 1 cases to migrate: two of one cardholder on one day (grouped into one claim by
 * `--group-by cardholder.email,dispute.date`), one of another.
 */
export function v1Cases(): { cases: V1CreateCaseBody[]; planted: string[]; groupBy: string } {
  const i = plantedPerson('Kestrelmoor', 9);
  const j = plantedPerson('Wyndcaster', 10);
  const disputeDate = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const transactionDate = new Date(Date.now() - 20 * 86_400_000).toISOString();
  const explanationOf = (caseId: string) => `Planted explanation ${caseId}: never ordered`;
  const body = (caseId: string, person: PlantedPerson): V1CreateCaseBody => ({
    case_id: caseId,
    cardholder: {
      name: person.name,
      email: person.email,
      type: 'individual',
      billing_address: { line1: person.line1, city: person.city, country: 'GB' },
    },
    dispute: { amount: 2599, currency: 'EUR', date: disputeDate },
    merchant: { name: 'Bookshop', category_code: '5942' },
    reason: 'duplicate',
    transaction: {
      amount: 2599,
      currency: 'EUR',
      date: transactionDate,
      switch_serial_number: `SSN-${caseId}`,
      card_last4: '5454',
      card_expiry_month: 3,
      card_expiry_year: 2030,
      card_network: 'mastercard',
      card_type: 'debit',
      system: 'single_message',
    },
    issuer_evidence: { explanation: explanationOf(caseId) },
  });
  const ids = ['V1-PLANTED-1', 'V1-PLANTED-2', 'V1-PLANTED-3'] as const;
  return {
    cases: [body(ids[0], i), body(ids[1], i), body(ids[2], j)],
    planted: [...personValues(i), ...personValues(j), ...ids.map(explanationOf)],
    groupBy: 'cardholder.email,dispute.date',
  };
}
