import type { JournalDatabase } from '../../journal/open.js';
import type { Thinned } from '../../journal/retention-meta.js';
import { quotableTexts, scrubbed, thinnedCaseJson, thinnedSharedJson } from '../thinning/kept-fields.js';
import type { ImportMeta } from './meta.js';

export interface ThinnedCounts {
  rows: number;
  claims: number;
  /** Messages replaced because they quoted their row. */
  messages: number;
}

/**
 * An import journal without its personal data (docs/data.md, "Retention"): every row's cells
 * and evidence paths gone, its mapped case and its claim's shared fields down to what proves the
 * transaction (thinning/kept-fields.ts), a message that quoted the row replaced. Kept: keys, ids,
 * digests, outcomes, codes, file ids, the claim ids ever sent, the service: what resumes the job
 * (nothing is left to send), refuses another service, and lets `withdraw`, `track` and `report`
 * work by ids. In the caller's transaction.
 */
export function thinImportJournal(database: JournalDatabase, meta: ImportMeta, thinned: Thinned): ThinnedCounts {
  let messages = 0;
  const count = (before: string | null, after: string | null) => {
    if (before !== after) messages++;
    return after;
  };
  // The claims' messages first: their rows' texts are still there to compare with.
  const rowsOfClaim = database.prepare('SELECT source, case_json FROM rows WHERE claim_key = ?');
  const updateClaim = database.prepare('UPDATE claims SET shared_json = ?, error_message = ? WHERE rowid = ?');
  const claims = inPages(
    database,
    'SELECT rowid AS id, claim_key, shared_json, error_message FROM claims',
    (record) => {
      const claim = record as unknown as ClaimText;
      const texts = () =>
        quotableTexts([
          claim.shared_json,
          ...(rowsOfClaim.all(claim.claim_key) as { source: string; case_json: string | null }[]).flatMap((row) => [
            row.source,
            row.case_json,
          ]),
        ]);
      const message =
        claim.error_message === null ? null : count(claim.error_message, scrubbed(claim.error_message, texts()));
      updateClaim.run(thinnedSharedJson(claim.shared_json), message, claim.id);
    },
  );
  const updateRow = database.prepare(
    "UPDATE rows SET source = '[]', case_json = ?, evidence_json = NULL, error_message = ? WHERE idx = ?",
  );
  const rows = inPages(database, 'SELECT idx AS id, source, case_json, error_message FROM rows', (record) => {
    const row = record as unknown as RowText;
    // The row's texts only for a row with a message: most have none.
    const message =
      row.error_message === null
        ? null
        : count(row.error_message, scrubbed(row.error_message, quotableTexts([row.source, row.case_json])));
    updateRow.run(thinnedCaseJson(row.case_json), message, row.id);
  });
  meta.set('thinned', thinned);
  return { rows, claims, messages };
}

interface ClaimText {
  id: number;
  claim_key: string;
  shared_json: string;
  error_message: string | null;
}

interface RowText {
  id: number;
  source: string;
  case_json: string | null;
  error_message: string | null;
}

/**
 * Each record of `select` (whose first column is `id`, its rowid), a page at a time: a table is
 * not held in memory, and no statement is left reading while its rows are updated.
 */
function inPages(database: JournalDatabase, select: string, each: (record: PagedRecord) => void): number {
  const page = database.prepare(`${select} WHERE id > ? ORDER BY id LIMIT ${pageSize}`);
  let seen = 0;
  for (let after = -1; ;) {
    const records = page.all(after) as PagedRecord[];
    for (const record of records) each(record);
    seen += records.length;
    const last = records.at(-1);
    if (last === undefined || records.length < pageSize) return seen;
    after = last.id;
  }
}

const pageSize = 1000;

type PagedRecord = { id: number } & Record<string, unknown>;
