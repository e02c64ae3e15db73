import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';

/**
 * Generated issuer exports for mappings/generic.yaml (claim id `CLM-{dispute_ref}`, case id
 * `{dispute_ref}-{transaction_ref}`), written as a stream with backpressure so that a million
 * rows cost no more memory than a thousand. Every row maps, and every claim files in chargeback
 * mode against the sandbox: fraud, card cancelled, fraud reported, transaction ten days ago.
 */

/**
 * The columns mappings/generic.yaml reads, in the order of samples/generic-export.csv: one list for
 * every test of the import and for the benchmarks (this module imports no vitest, so bench/ can use it).
 */
export const genericColumns = [
  'dispute_ref',
  'transaction_ref',
  'reason_code',
  'dispute_date',
  'cardholder_name',
  'cardholder_email',
  'card_last4',
  'card_network',
  'card_type',
  'card_expiry',
  'card_active',
  'fraud_reported',
  'merchant_name',
  'mcc',
  'transaction_date',
  'transaction_amount',
  'disputed_amount',
  'currency',
  'arn',
  'cardholder_statement',
  'receipt_file',
  'correspondence_files',
] as const;
export const genericHeader = genericColumns;

/** One input row: the `claim`-th claim's `transaction`-th case (both 0-based). */
export interface RowSpec {
  claim: number;
  transaction: number;
}

export interface PlanOptions {
  /** Stop after this many claims. */
  claims?: number;
  /** Stop after this many rows (the last claims may get fewer rows than planned). */
  rows?: number;
  /** Rows of the `claim`-th claim, 1 or more. */
  sizeOf: (claim: number) => number;
  /**
   * Claims emitted together: the first rows of a block's claims, then their second rows, and so
   * on, so the rows of one claim are up to `block` rows apart (1: every claim's rows adjacent).
   */
  block: number;
}

/** The rows of an export, in file order. */
export function* plannedRows(options: PlanOptions): Generator<RowSpec> {
  const maxClaims = options.claims ?? Number.POSITIVE_INFINITY;
  const maxRows = options.rows ?? Number.POSITIVE_INFINITY;
  let rows = 0;
  for (let first = 0; first < maxClaims && rows < maxRows; first += options.block) {
    const sizes: number[] = [];
    for (let claim = first; claim < Math.min(first + options.block, maxClaims); claim++)
      sizes.push(options.sizeOf(claim));
    const deepest = Math.max(...sizes);
    for (let transaction = 0; transaction < deepest; transaction++) {
      for (const [offset, size] of sizes.entries()) {
        if (transaction >= size) continue;
        if (rows >= maxRows) return;
        yield { claim: first + offset, transaction };
        rows++;
      }
    }
  }
}

/** A cheap deterministic 1..3 spread of claim sizes (about half single-row claims). */
export function oneToThreeRows(claim: number): number {
  const hash = Math.imul(claim ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  const draw = hash % 8;
  return draw < 4 ? 1 : draw < 7 ? 2 : 3;
}

export const disputeRef = (claim: number): string => `D${String(claim).padStart(7, '0')}`;
export const transactionRef = (transaction: number): string => `T${transaction + 1}`;
/** The mapping's claim.id template: `CLM-{dispute_ref}`. */
export const expectedClaimId = (claim: number): string => `CLM-${disputeRef(claim)}`;
/** The mapping's case.case_id template: `{dispute_ref}-{transaction_ref}`. */
export const expectedCaseId = (spec: RowSpec): string =>
  `${disputeRef(spec.claim)}-${transactionRef(spec.transaction)}`;

const dayMs = 24 * 60 * 60 * 1000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Row cells in `genericHeader` order. Claim-level cells depend on the claim only, so rows of one claim agree. */
export function rowCells(spec: RowSpec, nowMs: number): string[] {
  const { claim, transaction } = spec;
  const minor = 1000 + ((claim * 37 + transaction * 101) % 90_000);
  const amount = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
  const network = claim % 2 === 0 ? 'VISA' : 'Mastercard';
  return [
    disputeRef(claim),
    transactionRef(transaction),
    'FR',
    isoDay(nowMs - 5 * dayMs),
    `Holder ${claim}`,
    `holder${claim}@example.com`,
    String(claim % 10_000).padStart(4, '0'),
    network,
    claim % 3 === 0 ? 'Debit' : 'Credit',
    `${String((claim % 12) + 1).padStart(2, '0')}/${claim % 2 === 0 ? '30' : '2031'}`,
    'no',
    'yes',
    `Merchant ${claim % 997}`,
    '5732',
    isoDay(nowMs - (10 + transaction) * dayMs),
    amount,
    amount,
    claim % 5 === 0 ? 'eur' : 'usd',
    `7${String(claim).padStart(11, '0')}${String(transaction).padStart(11, '0')}`,
    'I did not make this purchase; my card never left my wallet.',
    '',
    '',
  ];
}

/** A CSV cell: quoted only when it must be. */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export interface WrittenCsv {
  rows: number;
  bytes: number;
}

/** One more column after the generic ones, its cell made from the row (a card number on every row). */
export interface ExtraColumn {
  readonly name: string;
  cellOf(spec: RowSpec): string;
}

/** Streams the planned rows to `file`, waiting for the disk whenever its buffer is full. */
export async function writeDisputesCsv(
  file: string,
  rows: Iterable<RowSpec>,
  nowMs = Date.now(),
  extra?: ExtraColumn,
): Promise<WrittenCsv> {
  const output = createWriteStream(file, { highWaterMark: 1 << 20 });
  const written: WrittenCsv = { rows: 0, bytes: 0 };
  let chunk = `${[...genericHeader, ...(extra === undefined ? [] : [extra.name])].join(',')}\n`;
  const flush = async () => {
    written.bytes += Buffer.byteLength(chunk);
    const ok = output.write(chunk);
    chunk = '';
    if (!ok) await once(output, 'drain');
  };
  for (const spec of rows) {
    const cells = rowCells(spec, nowMs);
    if (extra !== undefined) cells.push(extra.cellOf(spec));
    chunk += `${cells.map(cell).join(',')}\n`;
    written.rows++;
    if (chunk.length >= 256 * 1024) await flush();
  }
  await flush();
  output.end();
  await finished(output);
  return written;
}
