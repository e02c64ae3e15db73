import type { Readable } from 'node:stream';
import { newClaimBody, newClaimCaseSchema } from '../api/schemas/claim.js';
import { readRows } from '../csv/read-rows.js';
import type { CsvRow } from '../csv/records.js';
import { claimKeyValues, mapRow, type MappedRow } from '../mapping/map-row.js';
import type { Mapping } from '../mapping/schema.js';
import { derivedCaseId, derivedClaimId, inShard, type Shard } from './ids.js';
import type { Journal, RowProblem } from './journal/journal.js';
import { hasRenamedStatusColumns, maybeCreatedOutcomes, renameStatusColumns, statusCell, statusColumns } from './results/columns.js';
import { restore } from './results/neutralise.js';
import { firstDifference, wireFieldToMappingField } from './wire-fields.js';

/**
 * The stage step (architecture.md, "The pipeline"): every record of the input, read as a stream,
 * mapped and checked against the wire schema, written into the journal in batched transactions,
 * grouped by claim key however far apart its rows are. Memory is one batch, whatever the file size.
 */

export interface StageOptions {
  input: Readable;
  mapping: Mapping;
  journal: Journal;
  shard?: Shard | undefined;
  onProgress?: (rowsRead: number) => void;
}

export interface StageSummary {
  sourceColumns: string[];
  /** The input is one of our results files, fixed and fed back in. */
  resultsInput: boolean;
  rowsRead: number;
}

/** A row ready for the journal: mapped and checked, or with the problem that stops it. */
interface PreparedRow {
  idx: number;
  line: number;
  source: string;
  claimKey: string | undefined;
  problem?: RowProblem;
  mapped?: { row: MappedRow; sharedJson: string; caseJson: string };
  /** An earlier run reported the row's claim as created (a results file fed back in). */
  reportedCreated: boolean;
}

const batchSize = 500;

export async function stageRows(options: StageOptions): Promise<StageSummary> {
  const { journal, mapping } = options;
  // Set by readRows once the header is read (before the first row).
  const seen = { header: [] as readonly string[], resultsInput: false };
  let rowsRead = 0;
  let batch: PreparedRow[] = [];
  const wireCheck = new WireCheck();
  const flush = () => {
    const rows = batch;
    batch = [];
    journal.transaction(() => {
      for (const row of rows) stageOne(journal, row, options.shard);
    });
  };
  const onHeader = (names: readonly string[]) => {
    seen.header = names;
    seen.resultsInput = hasRenamedStatusColumns(names);
  };
  for await (const record of readRows(options.input, mapping.csv, { onHeader, renameHeader: renameStatusColumns })) {
    batch.push(prepare(record, mapping, seen, wireCheck));
    rowsRead++;
    if (batch.length >= batchSize) {
      flush();
      options.onProgress?.(rowsRead);
    }
  }
  flush();
  options.onProgress?.(rowsRead);
  return { sourceColumns: seen.resultsInput ? seen.header.slice(statusColumns.length) : [...seen.header], resultsInput: seen.resultsInput, rowsRead };
}

function prepare(record: CsvRow, mapping: Mapping, seen: { header: readonly string[]; resultsInput: boolean }, wireCheck: WireCheck): PreparedRow {
  const { resultsInput } = seen;
  const base = { idx: record.index, line: record.line, reportedCreated: false };
  if ('error' in record) {
    const raw = resultsInput ? (record.raw ?? []).slice(statusColumns.length) : (record.raw ?? []);
    // A row of the wrong width still names its claim, which must not be sent without it.
    const cells = Object.fromEntries(seen.header.map((column, position) => [column, record.raw?.[position] ?? '']));
    const claimKey = keyOf(resultsInput ? restoreCells(cells) : cells, mapping);
    return { ...base, source: JSON.stringify(raw), claimKey, problem: { code: record.error.code, message: record.error.message } };
  }
  let cells = record.cells;
  let raw = record.raw;
  let claimIdReported = false;
  if (resultsInput) {
    raw = raw.slice(statusColumns.length).map(restore);
    cells = restoreCells(cells);
    claimIdReported = statusCell(cells, 'claim_id') !== '' && maybeCreatedOutcomes.includes(statusCell(cells, 'outcome'));
  }
  const source = JSON.stringify(raw);
  const claimKey = keyOf(cells, mapping);
  const reportedCreated = claimIdReported;
  const result = mapRow(cells, mapping);
  if (!result.ok) {
    const [first, ...rest] = result.errors;
    const more = rest.length === 0 ? '' : ` (and ${rest.length} more: ${rest.map((error) => error.field).join(', ')})`;
    return { ...base, source, claimKey, reportedCreated, problem: { code: first?.code ?? 'invalid', message: `${first?.message ?? 'invalid'}${more}`, field: first?.field } };
  }
  const { row } = result;
  const caseBody = caseOf(row);
  const sharedJson = JSON.stringify(row.shared);
  const problem = wireCheck.problem(row, sharedJson, caseBody);
  if (problem) return { ...base, source, claimKey, reportedCreated, problem };
  return { ...base, source, claimKey: row.claimKey, reportedCreated, mapped: { row, sharedJson, caseJson: JSON.stringify(caseBody) } };
}

/** The claim key as mapRow makes it, or undefined when a key cell is blank or missing. */
function keyOf(cells: Readonly<Record<string, string>>, mapping: Mapping): string | undefined {
  const keyValues = claimKeyValues(cells, mapping);
  return keyValues.some((value) => value === '') ? undefined : JSON.stringify(keyValues);
}

/** A results file's cells were neutralised against formulas; the mapping reads the originals. */
function restoreCells(cells: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(cells).map(([column, value]) => [column, restore(value)]));
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
class WireCheck {
  /** `[claim id]` + shared JSON of bodies that passed whole; bounded, as memory is one batch. */
  private readonly passed = new Set<string>();

  problem(row: MappedRow, sharedJson: string, caseBody: Record<string, unknown>): RowProblem | undefined {
    const sharedKey = `${JSON.stringify([row.claimId ?? null])}${sharedJson}`;
    const caseItem = { case_id: 'placeholder', ...caseBody };
    if (this.passed.has(sharedKey)) {
      const parsed = newClaimCaseSchema.safeParse(caseItem);
      return parsed.success ? undefined : schemaProblem(parsed.error.issues, ['cases', 0]);
    }
    const parsed = newClaimBody.safeParse({ ...row.shared, claim_id: row.claimId, cases: [caseItem] });
    if (!parsed.success) return schemaProblem(parsed.error.issues, []);
    // Rows of a claim are usually near each other; forgetting now and then costs a full check.
    if (this.passed.size >= 4096) this.passed.clear();
    this.passed.add(sharedKey);
    return undefined;
  }
}

function schemaProblem(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix: readonly PropertyKey[]): RowProblem | undefined {
  const [issue] = issues;
  if (issue === undefined) return undefined;
  const field = wireFieldToMappingField([...prefix, ...issue.path].map(String));
  return { code: 'schema_invalid', message: `${field}: ${issue.message}`, field };
}

function stageOne(journal: Journal, row: PreparedRow, shard: Shard | undefined): void {
  if (!inShard(row.claimKey, shard)) return;
  const insert = (claimKey: string | null, ordinal: number | null, problem: RowProblem | undefined, caseId: string | null = null) => {
    journal.insertRow({
      idx: row.idx,
      line: row.line,
      source: row.source,
      claim_key: claimKey,
      ordinal,
      case_id: problem ? null : caseId,
      case_json: problem ? null : (row.mapped?.caseJson ?? null),
      evidence_json: problem ? null : JSON.stringify(row.mapped?.row.evidence ?? []),
      outcome: problem ? 'invalid' : null,
      error_code: problem?.code ?? null,
      error_message: problem?.message ?? null,
      error_field: problem?.field ?? null,
    });
  };
  if (row.claimKey === undefined) {
    insert(null, null, row.problem ?? { code: 'claim_key_missing', message: 'claim key: expected values, got a blank' });
    return;
  }

  const key = row.claimKey;
  const claim = journal.claim(key);
  if (row.mapped === undefined) {
    // A row that did not map still belongs to its claim, which must then not be sent without it.
    if (claim === undefined) journal.insertClaim({ claimKey: key, claimId: null, firstIdx: row.idx, firstLine: row.line, sharedJson: '' });
    insert(key, journal.addRowToClaim(key), row.problem);
    return;
  }
  const { row: mapped, sharedJson } = row.mapped;
  const claimId = mapped.claimId ?? derivedClaimId(key);
  // Claim ids are unique: when the row's claim already has this id, it is the owner (no lookup).
  const owner = claim?.claim_id === claimId ? claim : journal.claimById(claimId);
  if (owner !== undefined && owner.claim_key !== key) {
    // Kept in its own claim, which is then held back whole (its id is taken).
    if (claim === undefined) journal.insertClaim({ claimKey: key, claimId: null, firstIdx: row.idx, firstLine: row.line, sharedJson: '' });
    insert(key, journal.addRowToClaim(key), { code: 'claim_id_conflict', field: 'claim.id', message: `claim id: expected one claim key per claim id, got ${claimId}, already the id of the claim on line ${owner.first_line}` });
    return;
  }
  if (claim === undefined) {
    // The claim's first row, counted as the claim is inserted (ordinal 0). It agrees with itself,
    // so the checks against the claim below are skipped.
    journal.insertClaim({ claimKey: key, claimId, firstIdx: row.idx, firstLine: row.line, sharedJson, rows: 1 });
  } else if (claim.claim_id === null) {
    journal.fillClaim(key, claimId, sharedJson);
  }
  // Reported created (a results file fed back), or sent by this journal before a --restart.
  if (row.reportedCreated || journal.wasSent(claimId)) journal.markSent(key);
  const ordinal = claim === undefined ? 0 : journal.addRowToClaim(key);
  const caseId = typeof mapped.case.case_id === 'string' ? mapped.case.case_id : derivedCaseId(claimId, ordinal);
  if (claim !== undefined && claim.claim_id !== null) {
    const mismatch =
      claim.claim_id !== claimId
        ? { field: 'claim.id', expected: claim.claim_id, got: claimId }
        : claim.shared_json === sharedJson
          ? undefined
          : firstDifference(JSON.parse(claim.shared_json) as object, mapped.shared);
    if (mismatch) {
      const field = mismatch.field === 'claim.id' ? mismatch.field : `shared.${mismatch.field}`;
      insert(key, ordinal, { code: 'shared_field_mismatch', field, message: `${field}: expected ${mismatch.expected} as on line ${claim.first_line} (the claim's first row), got ${mismatch.got}` });
      return;
    }
  }
  if (journal.caseIdTaken(caseId)) {
    insert(key, ordinal, { code: 'case_id_duplicate', field: 'case.case_id', message: `case id: expected a case id used once, got ${caseId} again` });
    return;
  }
  insert(key, ordinal, undefined, caseId);
}
