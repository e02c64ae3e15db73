import type { JournalDatabase } from '../../journal/open.js';

/**
 * After staging's last row, in its transaction (docs/import.md, "Duplicates"): a row that
 * describes the same dispute as an earlier row of the run is taken out of its claim and recorded
 * `duplicate`, naming the earlier row's line, so that one dispute is never two cases. The journal
 * decides, by a sort of the staged rows' identities, not a set held in memory: memory stays flat
 * whatever the file's size.
 *
 * Which row is the first: a fed-back row reported created (its case is at the service), else the
 * earliest. A row reported created is never a duplicate: its results line proved the case is its
 * own. Rows of other shards count (other_shard_rows): the first of a dispute is the same row
 * whether the file is run whole or in shards. Skipped rows are no dispute, neither first nor later.
 */

/**
 * How many rows are duplicates; their claims are set right (rows, first row) or removed when none
 * is left by `settleClaimsOfDuplicates`. Run again over more rows (staging checks the rows staged
 * so far while claims already go out: src/import/stage/index.ts), it finds the same rows again and
 * the later ones: a row's first is never after it, so what it says of the rows checked before
 * stands. The claims that lost rows are remembered until they are settled.
 */
export function markDuplicateRows(database: JournalDatabase): number {
  database.exec(findDuplicates);
  const { count } = database.prepare('SELECT count(*) AS count FROM temp.duplicate_rows').get() as { count: number };
  if (count > 0) database.exec(markDuplicates);
  return count;
}

/**
 * After the rows' indexes are built (a claim's rows are then found by the index): the claims that
 * lost rows to duplicates count what is left and start at their first row left; a claim left with
 * no row goes (nothing of it is sent).
 */
export function settleClaimsOfDuplicates(database: JournalDatabase): void {
  database.exec(settleClaims);
}

// kind 0: an identical row, kind 1: the same ARN and amount. A row that is both says the first.
const findDuplicates = `
DROP TABLE IF EXISTS temp.duplicate_rows;
CREATE TEMP TABLE duplicate_rows AS
WITH identities AS (
  SELECT idx, line, coalesce(reported_created, 0) AS created, 0 AS kind, same_row AS identity, 1 AS own
    FROM rows WHERE same_row IS NOT NULL AND outcome IS NOT 'skipped'
  UNION ALL
  SELECT idx, line, coalesce(reported_created, 0), 1, same_transaction, 1
    FROM rows WHERE same_transaction IS NOT NULL AND outcome IS NOT 'skipped'
  UNION ALL
  SELECT idx, line, reported_created, 1, same_transaction, 0 FROM other_shard_rows
),
ranked AS (
  SELECT idx, kind, own, created,
    first_value(idx) OVER dispute AS first_idx, first_value(line) OVER dispute AS first_line,
    first_value(own) OVER dispute AS first_own
  FROM identities WINDOW dispute AS (PARTITION BY kind, identity ORDER BY created DESC, idx)
),
later AS (
  SELECT ranked.idx, ranked.kind, ranked.first_idx, ranked.first_line, ranked.first_own
  FROM ranked
  WHERE ranked.own = 1 AND ranked.created = 0 AND ranked.first_idx <> ranked.idx
),
-- An identical row is one whose cells are equal, not only their digests.
proven AS (
  SELECT later.* FROM later
  WHERE later.kind = 1
     OR (SELECT source FROM rows WHERE idx = later.idx) = (SELECT source FROM rows WHERE idx = later.first_idx)
)
SELECT idx, kind, first_line, claim_key FROM (
  SELECT proven.idx, proven.kind, proven.first_line, r.claim_key,
    row_number() OVER (PARTITION BY proven.idx ORDER BY proven.kind) AS place
  FROM proven JOIN rows r ON r.idx = proven.idx
) WHERE place = 1;
`;

// The message and code as docs/import.md's "Duplicates" words them; nothing of the row is sent.
// Their claims first, kept until settled: the rows lose their claim key here.
const markDuplicates = `
CREATE TEMP TABLE IF NOT EXISTS duplicate_claims (claim_key TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT OR IGNORE INTO temp.duplicate_claims SELECT claim_key FROM temp.duplicate_rows WHERE claim_key IS NOT NULL;
UPDATE rows SET
  claim_key = NULL, ordinal = NULL, case_id = NULL, case_json = NULL, evidence_json = NULL, file_ids = NULL,
  reported_case_id = NULL, warnings = NULL, outcome = 'duplicate', error_code = 'duplicate_row', error_field = NULL,
  error_message = 'the same dispute as line ' || d.first_line ||
    CASE d.kind WHEN 0 THEN ' (an identical row)' ELSE ' (the same ARN and amount)' END
FROM temp.duplicate_rows d WHERE rows.idx = d.idx;
`;

const settleClaims = `
CREATE TEMP TABLE IF NOT EXISTS duplicate_claims (claim_key TEXT PRIMARY KEY) WITHOUT ROWID;
WITH touched AS (SELECT claim_key FROM temp.duplicate_claims),
left AS (
  SELECT r.claim_key, count(*) AS rows, min(r.idx) AS first_idx
  FROM rows r WHERE r.claim_key IN (SELECT claim_key FROM touched) GROUP BY r.claim_key
)
UPDATE claims SET rows = left.rows, first_idx = left.first_idx,
  first_line = (SELECT line FROM rows WHERE idx = left.first_idx)
FROM left WHERE claims.claim_key = left.claim_key;
DELETE FROM claims WHERE claim_key IN (SELECT claim_key FROM temp.duplicate_claims)
  AND NOT EXISTS (SELECT 1 FROM rows r WHERE r.claim_key = claims.claim_key);
DROP TABLE IF EXISTS temp.duplicate_rows;
DROP TABLE IF EXISTS temp.duplicate_claims;
`;
