import type Database from 'better-sqlite3';
import { readResultRecords } from '../job-files/import/result-records.js';
import { maskCardNumbers } from '../card-numbers/mask.js';
import { rowResult } from '../job-files/import/row-outcome.js';
import { displayKey } from '../job-files/import/write-results.js';
import { claimKeyWanted, outcomeWanted, storedKeyForms, type TargetFilter } from '../job-files/read/target-filter.js';
import type { WithdrawTarget } from '../job-files/withdraw/target.js';
import { tablesOf } from '../journal/kind.js';

type ImportProof = Extract<NonNullable<WithdrawTarget['proof']>, { kind: 'import' }>;
type ProofCase = ImportProof['cases'][number];

/**
 * The claims an import job may have created at the service (to undo it), from its journal: claims
 * it created (`created`, `filing`, `done`), and claims whose create left the process without a
 * known answer (`submitting` and sent, or named among the ids a run of this journal ever sent a
 * create for: before a `--restart`, say); the run settles those by a retrieve. Never a claim held
 * back, refused or only checked (`staged`, `invalid`, `rejected`, `valid`): `claim_key_taken`
 * claims are `rejected`, and their ids are another dispute's.
 */
function eligibleClaims(database: Database.Database): string {
  const everSent = tablesOf(database).has('sent_claims')
    ? " OR (step IN ('staged', 'submitting') AND claim_id IN (SELECT claim_id FROM sent_claims))"
    : '';
  return `claim_id IS NOT NULL AND (step IN ('created', 'filing', 'done') OR (step = 'submitting' AND sent = 1)${everSent})`;
}

interface ClaimEntry {
  readonly claimId: string;
  /** As the results show it. */
  readonly claimKey: string;
  readonly last4: string | undefined;
  readonly wanted: boolean;
  readonly proof: ProofCase[];
  readonly caseIds: string[];
  /** A row passed `--outcome`: the claim is named. */
  named: boolean;
}

/**
 * Each claim's cases: its rows the service holds (a case id, an outcome other than `invalid` or
 * `rejected`: `claim_exists_without_case` rows are not in it), in input order. `--outcome`
 * narrows the cases named, by the outcome the results report (`rowResult`, the same function that
 * writes them); the proof keeps every case, so that the run proves the claim whatever was named.
 */
export function importJournalTargets(
  database: Database.Database,
  filter: TargetFilter,
  seenKeys: Set<string>,
): WithdrawTarget[] {
  const claims = new Map<string, ClaimEntry>();
  for (const row of database
    .prepare(`SELECT claim_key, claim_id, shared_json FROM claims WHERE ${eligibleClaims(database)}`)
    .iterate() as IterableIterator<{ claim_key: string; claim_id: string; shared_json: string }>) {
    const wanted = claimKeyWanted(storedKeyForms(row.claim_key), filter, seenKeys);
    claims.set(row.claim_key, {
      claimId: row.claim_id,
      // Written to the results: a key a version before masking took from a card number goes masked.
      claimKey: maskCardNumbers(displayKey(row.claim_key)),
      last4: last4Of(row.shared_json),
      wanted,
      proof: [],
      caseIds: [],
      named: false,
    });
  }
  const transactions = transactionsOf(database, claims);
  const order: ClaimEntry[] = [];
  for (const record of readResultRecords(database)) {
    const claim = record.claim_key === null ? undefined : claims.get(record.claim_key);
    if (claim === undefined || !claim.wanted) continue;
    const { outcome } = rowResult(record);
    if (outcome === 'invalid' || outcome === 'rejected') continue;
    const transaction = transactions.get(record.idx);
    if (record.case_id !== null && transaction !== undefined)
      claim.proof.push({ caseId: record.case_id, line: record.line, transaction, last4: claim.last4 });
    if (!outcomeWanted(outcome, filter)) continue;
    if (!claim.named) order.push(claim);
    claim.named = true;
    if (record.case_id !== null) claim.caseIds.push(record.case_id);
  }
  return order.map((claim) => ({
    claimId: claim.claimId,
    claimKey: claim.claimKey,
    caseIds: claim.caseIds,
    proof: { kind: 'import', cases: claim.proof },
  }));
}

/** Each eligible row's `transaction` as the import mapped it (`rows.case_json`), by row idx. */
function transactionsOf(
  database: Database.Database,
  claims: ReadonlyMap<string, ClaimEntry>,
): Map<number, Record<string, unknown>> {
  const transactions = new Map<number, Record<string, unknown>>();
  const rows = database
    .prepare('SELECT idx, claim_key, case_json FROM rows WHERE case_json IS NOT NULL AND claim_key IS NOT NULL')
    .iterate() as IterableIterator<{ idx: number; claim_key: string; case_json: string }>;
  for (const row of rows) {
    if (claims.get(row.claim_key)?.wanted !== true) continue;
    transactions.set(row.idx, objectAt(parseObject(row.case_json), 'transaction'));
  }
  return transactions;
}

/** The claim's card last4 as staged (`claims.shared_json`'s `card.last4`). */
function last4Of(sharedJson: string): string | undefined {
  const last4 = objectAt(parseObject(sharedJson), 'card').last4;
  return typeof last4 === 'string' ? last4 : typeof last4 === 'number' ? String(last4) : undefined;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function objectAt(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  return isObject(value) ? value : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
