import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { Journal } from '../../src/import/journal/journal.js';
import { readClaimExtents } from '../../src/import/stage/claim-extents.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';

/**
 * Claims go out while staging goes on (docs/import.md, "What happens, in order"): the rows staged
 * so far are checked from time to time, and a claim is sent once its last row is in and checked.
 * What that may send must be what staging at once would have sent: the journal staged with checks
 * on the way is the journal staged at once, table for table, and every claim ready at a check
 * already had, then, its every row as it ends, whatever rows came after (duplicates of earlier
 * rows, case ids taken again, rows of the same claim far apart, rows skipped or invalid).
 */

const mapping = parseMapping(
  `
claim: { key: [ref] }
shared:
  card.last4: { column: last4 }
  card.network: { constant: visa }
  dispute.reason: { constant: fraud }
case:
  case_id: { column: case_ref }
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
rows:
  only: { kind: [D] }
`,
  'test-mapping.yaml',
);

const header = 'ref,kind,last4,amount,date,arn,case_ref';
const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A seeded generator: the same night every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Rows of claims of one to four rows, a claim's later rows up to `spread` rows after its first;
 * among them rows repeated whole, transactions repeated under another claim, case ids taken again,
 * amounts that do not read, summary rows the mapping skips, and a blank key.
 */
function night(rows: number, spread: number, seed: number): string[] {
  const random = seeded(seed);
  const lines: string[] = [];
  const waiting: { at: number; line: string }[] = [];
  let claim = 0;
  while (lines.length < rows) {
    const due = waiting.findIndex((later) => later.at <= lines.length);
    if (due >= 0) {
      lines.push(waiting.splice(due, 1)[0]?.line ?? '');
      continue;
    }
    const draw = random();
    const earlier = lines[Math.floor(random() * lines.length)];
    if (earlier !== undefined && draw < 0.04) {
      lines.push(earlier);
      continue;
    }
    if (earlier !== undefined && draw < 0.07) {
      const cells = earlier.split(',');
      lines.push([`K${claim++}`, ...cells.slice(1, 6), `X${claim}`].join(','));
      continue;
    }
    if (earlier !== undefined && draw < 0.09) {
      const cells = earlier.split(',');
      lines.push([`K${claim++}`, 'D', '4417', '9.99', '2026-01-03', arnOf(claim + 1_000_000, 0), cells[6]].join(','));
      continue;
    }
    const ref = draw < 0.095 ? '' : `K${claim}`;
    const size = 1 + Math.floor(random() * 4);
    for (let place = 0; place < size; place++) {
      const kind = random() < 0.03 ? 'summary' : 'D';
      const amount = random() < 0.02 ? '12,5O' : `${10 + place}.00`;
      const line = [ref, kind, '4417', amount, '2026-01-02', arnOf(claim, place), `C${claim}-${place}`].join(',');
      if (place === 0) lines.push(line);
      else waiting.push({ at: lines.length + 1 + Math.floor(random() * spread), line });
    }
    claim++;
  }
  for (const later of waiting) lines.push(later.line);
  return lines;
}

/** 23 digits, as a Visa ARN is. */
const arnOf = (claim: number, place: number) => `7${String(claim).padStart(11, '0')}${String(place).padStart(11, '0')}`;

const csvOf = (lines: readonly string[]) => `${[header, ...lines].join('\n')}\n`;

function tables(journal: Journal): { rows: unknown[]; claims: unknown[] } {
  return {
    rows: journal.database.prepare('SELECT * FROM rows ORDER BY idx').all(),
    claims: journal.database.prepare('SELECT * FROM claims ORDER BY claim_key').all(),
  };
}

function freshJournal(): Journal {
  const directory = mkdtempSync(join(tmpdir(), 'stage-checked-'));
  directories.push(directory);
  return new Journal(join(directory, 'journal.sqlite'));
}

describe('staging checked as it goes', () => {
  for (const { spread, seed } of [
    { spread: 3, seed: 1 },
    { spread: 400, seed: 2 },
    { spread: 5_000, seed: 3 },
  ])
    it(`leaves the journal staging at once leaves, and a claim ready at a check as it ends (rows up to ${spread} apart)`, async () => {
      const lines = night(9_000, spread, seed);
      const atOnce = freshJournal();
      await stageRows({ input: Readable.from([csvOf(lines)]), mapping, journal: atOnce });

      const extents = await readClaimExtents({ input: Readable.from([csvOf(lines)]), mapping });
      expect(extents).toBeDefined();
      const asItGoes = freshJournal();
      const readyAtChecks = new Map<string, unknown[]>();
      const checks: number[] = [];
      await stageRows({
        input: Readable.from([csvOf(lines)]),
        mapping,
        journal: asItGoes,
        onChecked: (throughIndex) => {
          checks.push(throughIndex);
          const keys = asItGoes.database.prepare('SELECT claim_key FROM claims').pluck().all() as string[];
          for (const key of keys)
            if (!readyAtChecks.has(key) && (extents?.lastRecordOf(key) ?? Infinity) <= throughIndex)
              readyAtChecks.set(
                key,
                asItGoes.database.prepare('SELECT * FROM rows WHERE claim_key = ? ORDER BY idx').all(key),
              );
        },
      });

      expect(checks.length).toBeGreaterThanOrEqual(3);
      // The night holds what the checks are about.
      const codes = atOnce.database
        .prepare('SELECT DISTINCT error_code FROM rows WHERE error_code IS NOT NULL ORDER BY 1')
        .pluck()
        .all();
      expect(codes).toEqual(expect.arrayContaining(['case_id_duplicate', 'duplicate_row', 'row_skipped']));
      expect(codes.length).toBeGreaterThanOrEqual(5);
      expect(tables(asItGoes)).toEqual(tables(atOnce));
      expect(readyAtChecks.size).toBeGreaterThan(100);
      const rowsOfClaim = atOnce.database.prepare('SELECT * FROM rows WHERE claim_key = ? ORDER BY idx');
      for (const [key, rows] of readyAtChecks) expect(rows, key).toEqual(rowsOfClaim.all(key));
      atOnce.close();
      asItGoes.close();
    });

  it('knows no claim ready before the end in one of our results files fed back', async () => {
    const status = statusColumns.join(',');
    const blanks = ','.repeat(statusColumns.length - 1);
    const input = `${status},${header}\n2${blanks},K1,D,4417,10.00,2026-01-02,74492156300,C1\n`;
    expect(await readClaimExtents({ input: Readable.from([input]), mapping })).toBeUndefined();
  });
});
