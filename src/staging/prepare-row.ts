import { newClaimBody, newClaimCaseSchema } from '../api/schemas/claim.js';
import { precompiledSafeParse } from '../api/schemas/precompiled.js';
import type { CsvRowError } from '../csv/errors.js';
import { compileMapping } from '../mapping/compile/index.js';
import type { FieldError, MappedRow } from '../mapping/map-row.js';
import type { Mapping } from '../mapping/schema.js';
import { derivedClaimId } from '../job-files/claims/ids.js';
import type { RowProblem } from '../job-files/import/records.js';
import { maybeCreatedOutcomes, statusCell } from '../job-files/import/columns.js';
import { restore } from '../csv/neutralise.js';
import { maskCardNumbers } from '../card-numbers/mask.js';
import { whatMaskingChanged } from './card-number-fields.js';
import { wireFieldToMappingField } from '../job-files/claims/wire-fields.js';
import { rowFilterFor, type SkipReason } from '../mapping/rows/filter.js';
import { sameRowDigest, sameTransactionOf } from './dispute-identity.js';

/**
 * The part of staging that needs no journal: one record of the input, mapped and checked against
 * the wire schema, to what the journal stores of it. It depends on no other row, so it runs in the
 * staging worker thread while the main thread writes the journal.
 */

/** A row ready for the journal: mapped and checked, or with the problem that stops it. */
export interface PreparedRow {
  idx: number;
  line: number;
  /** JSON array of the record's cells, unchanged (a results file's: its source columns, restored). */
  source: string;
  claimKey: string | undefined;
  problem?: RowProblem | undefined;
  mapped?: MappedForJournal | undefined;
  /** An earlier run reported the row's claim as created (a results file fed back in). */
  reportedCreated: boolean;
  /** Such a row's `file_ids`: the files its case has at the service, to tell a newly named file from them. */
  reportedFileIds?: string | undefined;
  /** Such a row's `case_id`, when its results line reported it on the claim id the row maps to now. */
  reportedCaseId?: string | undefined;
  /** What was changed in what is sent, the row still sent: `card_number_masked: <fields>` (the results' `warnings`). */
  warnings?: string | undefined;
  /** Not a row to import (`rows.only`): reported `skipped` with the rule, in no claim. */
  skipped?: SkipReason | undefined;
  /** A digest of the staged cells, and the transaction the row disputes: what tells its duplicates (dispute-identity.ts). */
  sameRow?: string | undefined;
  sameTransaction?: string | undefined;
  /** A row of another shard (--shard): staged only as the transaction it names, for this shard's duplicates. */
  otherShard?: { sameTransaction: string } | undefined;
}

/** What the journal needs of a mapped row, already serialised (plain strings cross threads cheaply). */
export interface MappedForJournal {
  /** The mapped claim id, or the one derived from the key. */
  claimId: string;
  /** The mapped case id; undefined to derive one from the row's place in its claim. */
  caseId: string | undefined;
  sharedJson: string;
  caseJson: string;
  evidenceJson: string;
}

/** What the header said: set by the reader before the first row. */
export interface HeaderSeen {
  header: readonly string[];
  /** The input is one of our results files, fixed and fed back in. */
  resultsInput: boolean;
  /** Its status columns before the source columns: today's, or a legacy file's fewer (0 when not a results file). */
  statusCount: number;
  /** The header's places of the mapping's `not_card_numbers` columns: their cells are not masked (docs/mappings.md). */
  unmaskedColumns: readonly number[];
  /** The header's places whose masking can change what is sent (`columnsSentWhole`): the others need no second mapping. */
  sentWhole: readonly number[];
}

/**
 * A record as read: its cells in header order (a CsvRow, or a record as it crosses to a staging
 * worker). Mapped by index through the compiled mapping, without a header-keyed copy.
 */
export interface ReadRecord {
  line: number;
  index: number;
  raw?: readonly string[] | undefined;
  error?: CsvRowError | undefined;
}

export function prepareRow(record: ReadRecord, mapping: Mapping, seen: HeaderSeen, wireCheck: WireCheck): PreparedRow {
  const { resultsInput } = seen;
  const compiled = compileMapping(mapping, seen.header);
  const base = { idx: record.index, line: record.line, reportedCreated: false };
  const staged = stagedCells(record, seen);
  const { source } = staged;
  if (record.error !== undefined) {
    // A row of the wrong width still names its claim, which must not be sent without it.
    const claimKey = compiled.claimKey(resultsInput ? staged.cells.map(restore) : staged.cells);
    return {
      ...base,
      source,
      claimKey,
      // A record that does not read (a blank line, a wrong width, a stray quote) is no dispute to
      // compare: each stays an invalid line of its own, with what is wrong with it.
      problem: { code: record.error.code, message: record.error.message },
    };
  }
  const { status, reportedCreated, reportedFileIds } = readBack(seen, staged.unmasked);
  const { cells: raw, unmasked } = staged;
  const claimKey = compiled.claimKey(raw);
  // A row the mapping's `rows.only` leaves out is not mapped: its fields may be anything.
  const skipped = rowFilterFor(mapping, seen.header)?.(raw);
  if (skipped !== undefined) return { ...base, source, claimKey, skipped };
  const sameRow = sameRowDigest(source);
  const result = compiled.map(raw);
  const { problem: cardNumberProblem, warnings } = whatMaskingChanged(
    compiled,
    seen.sentWhole,
    { raw, unmasked },
    result,
  );
  const identity = { sameRow, sameTransaction: result.ok ? sameTransactionOf(result.row, mapping) : undefined };
  if (cardNumberProblem !== undefined)
    return { ...base, source, claimKey, reportedCreated, problem: cardNumberProblem, ...identity };
  if (!result.ok)
    return { ...base, source, claimKey, reportedCreated, problem: mappingProblem(result.errors), ...identity };
  const { row } = result;
  const caseBody = caseOf(row);
  const sharedJson = JSON.stringify(row.shared);
  const problem = wireCheck.problem(row, sharedJson, caseBody);
  if (problem) return { ...base, source, claimKey, reportedCreated, problem, ...identity };
  const mapped: MappedForJournal = {
    claimId: row.claimId ?? derivedClaimId(row.claimKey, mapping.claim.id_prefix),
    caseId: typeof row.case.case_id === 'string' ? row.case.case_id : undefined,
    sharedJson,
    caseJson: JSON.stringify(caseBody),
    evidenceJson: JSON.stringify(row.evidence),
  };
  const reportedClaimId = statusCell(status, 'claim_id');
  if (reportedCreated && reportedClaimId !== mapped.claimId)
    return {
      ...base,
      source,
      claimKey: row.claimKey,
      reportedCreated: false,
      problem: claimIdChanged(reportedClaimId, mapped.claimId),
      ...identity,
    };
  // The results line proves which case is this row's: its differences are fixes.
  const reportedCaseId = reportedCreated ? statusCell(status, 'case_id') || undefined : undefined;
  // Spelled out rather than spread from `base`: the one object every mapped row makes, and the
  // spread showed in staging's profile.
  return {
    idx: record.index,
    line: record.line,
    reportedCreated,
    source,
    claimKey: row.claimKey,
    reportedFileIds,
    reportedCaseId,
    mapped,
    warnings,
    sameRow,
    sameTransaction: identity.sameTransaction,
  };
}

/**
 * A record's cells as staged and their `source` JSON (docs/import.md, "Card numbers"): every cell
 * masked before it is mapped or staged, a results file's restored first (the formula prefix
 * removed) and only its source columns kept in `source`. A record that does not read keeps its
 * cells as read, masked. The results of a thinned journal read the input again through this, so
 * that its cells are the ones staging kept (src/import/thinned).
 */
export function stagedCells(
  record: ReadRecord,
  seen: HeaderSeen,
): { cells: readonly string[]; unmasked: readonly string[]; source: string } {
  const masked = maskingOf(seen);
  const read = record.raw ?? [];
  if (record.error !== undefined) {
    const cells = read.map(masked);
    return { cells, unmasked: read, source: JSON.stringify(cells.slice(seen.statusCount)) };
  }
  const unmasked = seen.resultsInput ? read.map(restore) : read;
  const cells = unmasked.map(masked);
  return { cells, unmasked, source: JSON.stringify(seen.resultsInput ? cells.slice(seen.statusCount) : cells) };
}

/** A cell's masking: every cell's, but for the mapping's `not_card_numbers` columns, whose cells are kept as read. */
function maskingOf(seen: HeaderSeen): (cell: string, index: number) => string {
  const { unmaskedColumns } = seen;
  if (unmaskedColumns.length === 0) return (cell) => maskCardNumbers(cell);
  return (cell, index) => (unmaskedColumns.includes(index) ? cell : maskCardNumbers(cell));
}

/**
 * A fed-back row reported on a claim the service may hold, which maps to another claim id now:
 * its key cells or the mapping's ids changed (a key edited, `claim.id_prefix` added). Sent, it
 * would make a second claim of the same dispute; held back instead.
 */
function claimIdChanged(reported: string, now: string): RowProblem {
  return {
    code: 'claim_id_changed',
    field: 'claim.key',
    message:
      `claim id: expected ${reported}, the claim the results reported this row on, got ${now} from the key and mapping now; ` +
      'sending it would make a second claim of this dispute: feed it back with the mapping the results were ' +
      "made with and the key unchanged, or clear the row's claim_id cell to send it as a new claim",
  };
}

/** A row that did not map: its first field error, naming the others. */
function mappingProblem(errors: readonly FieldError[]): RowProblem {
  const [first, ...rest] = errors;
  const more = rest.length === 0 ? '' : ` (and ${rest.length} more: ${rest.map((error) => error.field).join(', ')})`;
  return { code: first?.code ?? 'invalid', message: `${first?.message ?? 'invalid'}${more}`, field: first?.field };
}

/**
 * For a results file fed back, what its status cells (restored: `stagedCells`) reported: whether
 * its claim may exist at the service, and the files its case has there.
 */
function readBack(
  seen: HeaderSeen,
  cells: readonly string[],
): { status: Record<string, string>; reportedCreated: boolean; reportedFileIds?: string } {
  if (!seen.resultsInput) return { status: {}, reportedCreated: false };
  const status = statusCellsOf(seen, cells);
  const reportedCreated =
    statusCell(status, 'claim_id') !== '' && maybeCreatedOutcomes.includes(statusCell(status, 'outcome'));
  const fileIds = statusCell(status, 'file_ids');
  return { status, reportedCreated, reportedFileIds: reportedCreated && fileIds !== '' ? fileIds : undefined };
}

/** A results file's status cells (restored), by their header names, as statusCell reads them. */
function statusCellsOf(seen: HeaderSeen, raw: readonly string[]): Record<string, string> {
  const status: Record<string, string> = {};
  for (let position = 0; position < seen.statusCount; position++)
    status[seen.header[position] ?? ''] = raw[position] ?? '';
  return status;
}

/** The row's entry of new_claim.cases (its id is added when staged: it may depend on its place). */
function caseOf(row: MappedRow): Record<string, unknown> {
  const caseBody: Record<string, unknown> = { ...row.case };
  if (Object.keys(row.customFields).length > 0) caseBody.custom_fields = row.customFields;
  return caseBody;
}

/**
 * The strict wire schema on the claim this row alone would make; its errors name mapping fields.
 *
 * Most of the check's cost is the claim-level part (card, cardholder, dispute, issuer evidence),
 * which the rows of one claim repeat. Once a row's whole body has passed, a later row with the
 * same claim id and the same shared fields is checked on its case alone: the claim-level fields
 * and refinements passed with those very values (the JSON of a mapped fragment determines it: its
 * values are strings, finite numbers and booleans), and the body's only check across cases
 * (duplicate case ids) cannot fail with one case. So the first issue, if any, is the case's own,
 * at the same path (`cases.0.…`) and with the same message as in the whole body.
 */
const parseBody = precompiledSafeParse(newClaimBody);
const parseCase = precompiledSafeParse(newClaimCaseSchema);

export class WireCheck {
  /** `[claim id]` + shared JSON of bodies that passed whole; bounded, as memory is one batch. */
  private readonly passed = new Set<string>();

  problem(row: MappedRow, sharedJson: string, caseBody: Record<string, unknown>): RowProblem | undefined {
    const sharedKey = `${JSON.stringify([row.claimId ?? null])}${sharedJson}`;
    const caseItem = { case_id: 'placeholder', ...caseBody };
    if (this.passed.has(sharedKey)) {
      const parsed = parseCase(caseItem);
      return parsed.success ? undefined : schemaProblem(parsed.error.issues, ['cases', 0]);
    }
    const parsed = parseBody({ ...row.shared, claim_id: row.claimId, cases: [caseItem] });
    if (!parsed.success) return schemaProblem(parsed.error.issues, []);
    // Rows of a claim are usually near each other; forgetting now and then costs a full check.
    if (this.passed.size >= 4096) this.passed.clear();
    this.passed.add(sharedKey);
    return undefined;
  }
}

function schemaProblem(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix: readonly PropertyKey[],
): RowProblem | undefined {
  const [issue] = issues;
  if (issue === undefined) return undefined;
  const field = wireFieldToMappingField([...prefix, ...issue.path].map(String));
  return { code: 'schema_invalid', message: `${field}: ${issue.message}`, field };
}
