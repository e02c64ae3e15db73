import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { buildClaimBody, checkClaimBody, type ClaimBody } from '../../src/import/claim/body.js';
import { PrepareAhead, prepareClaim } from '../../src/import/claim/prepare-ahead.js';
import { Journal, type StagedRowRecord } from '../../src/import/journal/journal.js';

/**
 * Claims prepared before their turn (src/import/claim/prepare-ahead.ts): the body of a claim with
 * nothing remote before its create is the one createOnce would build, checked; any other claim gets
 * its rows, and a fresh claim's evidence files are already being read and checked; the pump
 * prepares one claim a turn, in order, skipping those already taken or dropped.
 */

const journals: Journal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
});

const shared = {
  card: { last4: '4242', network: 'visa', type: 'credit', expiry_month: 11, expiry_year: 2030 },
  cardholder: { name: 'Ada Holder', email: 'ada@example.com', type: 'individual' },
  dispute: { date: '2026-11-20T00:00:00.000Z', raised_by: 'cardholder', reason: 'fraud' },
};

function caseJson(index: number, amount = 1_250): string {
  return JSON.stringify({
    dispute: { amount, currency: 'USD' },
    merchant: { category_code: '5732', name: `Merchant ${index}` },
    transaction: {
      amount: 1_250,
      arn: `7${String(index).padStart(22, '0')}`,
      currency: 'USD',
      date: '2026-11-10T00:00:00.000Z',
      system: 'dual_message',
    },
  });
}

function row(idx: number, claimKey: string, overrides: Partial<StagedRowRecord> = {}): StagedRowRecord {
  return {
    idx,
    line: idx + 2,
    source: '[]',
    claim_key: claimKey,
    ordinal: idx,
    case_id: `CASE-${idx}`,
    case_json: caseJson(idx),
    evidence_json: null,
    outcome: null,
    error_code: null,
    error_message: null,
    error_field: null,
    ...overrides,
  };
}

/** A journal in memory with one claim per entry, each of the rows given. */
function journalWith(claims: Record<string, StagedRowRecord[]>): Journal {
  const journal = new Journal(':memory:');
  journals.push(journal);
  let firstIdx = 0;
  for (const [key, rows] of Object.entries(claims)) {
    journal.staging.insertClaim({
      claimKey: key,
      claimId: `CLM-${key}`,
      firstIdx,
      firstLine: firstIdx + 2,
      sharedJson: JSON.stringify(shared),
    });
    for (const staged of rows) journal.staging.insertRow(staged);
    firstIdx += rows.length;
  }
  return journal;
}

function claimOf(journal: Journal, key: string) {
  const claim = journal.claim(key);
  if (claim === undefined) throw new Error(`test: expected claim ${key}`);
  return claim;
}

describe('prepareClaim', () => {
  it('builds and checks the body of a claim with nothing remote before its create, as createOnce would', () => {
    const journal = journalWith({ a: [row(0, 'a'), row(1, 'a')] });
    const claim = claimOf(journal, 'a');
    const prepared = prepareClaim(claim, journal);
    const rows = journal.rowsOf('a');
    expect(prepared.rows).toEqual(rows);
    // The shared fields once, one case per row in input order, no documentation: no row names a file.
    const expected = {
      ...shared,
      claim_id: 'CLM-a',
      cases: [0, 1].map((idx) => ({ case_id: `CASE-${idx}`, ...(JSON.parse(caseJson(idx)) as object) })),
    };
    expect(prepared.wire?.body).toEqual(expected);
    expect(prepared.wire?.body).toEqual(buildClaimBody({ ...claim, claim_id: 'CLM-a' }, rows, new Map()));
    expect(prepared.wire?.check.ok).toBe(true);
    expect(prepared.wire?.check).toEqual(checkClaimBody(expected as unknown as ClaimBody, rows));
  });

  it("keeps a body the wire schema refuses with its row's problem, to be recorded in the claim's turn", () => {
    const journal = journalWith({ a: [row(0, 'a', { case_json: caseJson(0, -5) })] });
    const prepared = prepareClaim(claimOf(journal, 'a'), journal);
    expect(prepared.wire?.check.ok).toBe(false);
    if (prepared.wire?.check.ok !== false) return;
    expect([...prepared.wire.check.problems.keys()]).toEqual([0]);
    // Nothing was written: the claim is untouched until its turn.
    expect(journal.rowsOf('a')[0]?.outcome).toBeNull();
  });

  it.each([
    [
      'a row names an evidence file',
      {
        a: [
          row(0, 'a', { evidence_json: JSON.stringify([{ path: 'r.pdf', category: 'receipt', column: 'receipt' }]) }),
        ],
      },
      () => {
        /* as staged */
      },
    ],
    [
      'a row is invalid',
      { a: [row(0, 'a'), row(1, 'a', { outcome: 'invalid', error_code: 'schema_invalid' })] },
      () => {
        /* as staged */
      },
    ],
    [
      'an earlier run sent it',
      { a: [row(0, 'a')] },
      (journal: Journal) => {
        journal.database.prepare('UPDATE claims SET sent = 1').run();
      },
    ],
    [
      'it is past staged',
      { a: [row(0, 'a')] },
      (journal: Journal) => {
        journal.setStep('a', 'created');
      },
    ],
    [
      'it has no claim id',
      { a: [row(0, 'a')] },
      (journal: Journal) => {
        journal.database.prepare('UPDATE claims SET claim_id = NULL').run();
      },
    ],
  ])('reads only the rows when %s', (_name, claims, change) => {
    const journal = journalWith(claims);
    change(journal);
    const prepared = prepareClaim(claimOf(journal, 'a'), journal);
    expect(prepared.wire).toBeUndefined();
    expect(prepared.rows).toEqual(journal.rowsOf('a'));
  });
});

describe("a page of claims' rows", () => {
  it("reads each pending claim's rows of the page in one statement, as rowsOf reads them one claim at a time", () => {
    // Rows of two claims interleaved; c is done, d lies after the page.
    const journal = journalWith({
      a: [row(0, 'a'), row(2, 'a')],
      b: [row(1, 'b'), row(3, 'b')],
      c: [row(4, 'c')],
      d: [row(5, 'd')],
    });
    journal.setStep('c', 'done');
    const page = journal.pendingClaims(-1, 2);
    expect(page.map((claim) => claim.claim_key)).toEqual(['a', 'b']);
    const rows = journal.rowsOfPendingClaims(-1, page.at(-1)?.first_idx ?? -1);
    expect([...rows.keys()]).toEqual(['a', 'b']);
    expect(rows.get('a')).toEqual(journal.rowsOf('a'));
    expect(rows.get('b')).toEqual(journal.rowsOf('b'));
    expect(rows.get('b')?.map((record) => record.idx)).toEqual([1, 3]);
    expect([...journal.rowsOfPendingClaims(claimOf(journal, 'a').first_idx, 5).keys()]).toEqual(['b', 'd']);
    // Given its rows, a claim is prepared from them as from its own read.
    expect(prepareClaim(claimOf(journal, 'b'), journal, false, undefined, rows.get('b'))).toEqual(
      prepareClaim(claimOf(journal, 'b'), journal),
    );
  });
});

describe("evidence read before the claim's turn", () => {
  const evidenceDir = join(import.meta.dirname, '../../samples/evidence');
  const naming = (path: string) => JSON.stringify([{ path, category: 'receipt', column: 'receipt' }]);

  it("reads and checks a fresh claim's files of the folder while it waits, the bytes its upload sends", async () => {
    const journal = journalWith({ a: [row(0, 'a', { evidence_json: naming('receipts/cafe-lumiere-receipt.pdf') })] });
    const prepared = prepareClaim(claimOf(journal, 'a'), journal, false, { evidenceDir });
    expect(prepared.wire).toBeUndefined();
    const checked = await prepared.evidence;
    if (checked?.ok !== true) throw new Error(`test: expected the file checked, got ${JSON.stringify(checked)}`);
    const bytes = await readFile(join(evidenceDir, 'receipts/cafe-lumiere-receipt.pdf'));
    const [file] = checked.filesByRow.get(0) ?? [];
    expect(file?.contentType).toBe('application/pdf');
    expect(file?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(file?.bytes.equals(bytes)).toBe(true);
  });

  it("keeps a file's problem for the claim's turn, writing nothing before it", async () => {
    const journal = journalWith({ a: [row(0, 'a', { evidence_json: naming('../outside.pdf') })] });
    const prepared = prepareClaim(claimOf(journal, 'a'), journal, false, { evidenceDir });
    const checked = await prepared.evidence;
    if (checked?.ok !== false) throw new Error(`test: expected a problem, got ${JSON.stringify(checked)}`);
    expect(checked.problems.get(0)?.field).toBe('evidence.receipt');
    expect(journal.rowsOf('a')[0]?.outcome).toBeNull();
  });

  it.each([
    ['no row names a file', { a: [row(0, 'a')] }],
    [
      'a row is invalid',
      {
        a: [
          row(0, 'a', { evidence_json: naming('receipts/cafe-lumiere-receipt.pdf') }),
          row(1, 'a', { outcome: 'invalid' }),
        ],
      },
    ],
  ])('reads nothing early when %s', (_name, claims) => {
    const journal = journalWith(claims);
    expect(prepareClaim(claimOf(journal, 'a'), journal, false, { evidenceDir }).evidence).toBeUndefined();
  });
});

describe('PrepareAhead', () => {
  it('prepares one claim a turn, in order, skipping claims taken or dropped before their turn', async () => {
    const journal = journalWith({ a: [row(0, 'a')], b: [row(1, 'b')], c: [row(2, 'c')], d: [row(3, 'd')] });
    const ahead = new PrepareAhead(journal);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((key) => ahead.schedule(claimOf(journal, key)));
    if (a === undefined || b === undefined || c === undefined || d === undefined)
      throw new Error('test: four scheduled');
    const prepared = (entry: typeof a) => entry.isPrepared;
    expect([a, b, c, d].map(prepared)).toEqual([false, false, false, false]);
    // Taken before the pump reached it: prepared there and then.
    expect(b.take().wire?.body.claim_id).toBe('CLM-b');
    c.drop();
    await nextTurn();
    expect([a, b, c, d].map(prepared)).toEqual([true, true, false, false]);
    await nextTurn();
    // b and c were skipped: the next turn went to d.
    expect([a, b, c, d].map(prepared)).toEqual([true, true, false, true]);
    expect(a.take().rows.map((staged) => staged.idx)).toEqual([0]);
  });

  it('leaves claims past staged to be prepared when taken', async () => {
    const journal = journalWith({ a: [row(0, 'a')] });
    journal.setStep('a', 'created');
    const entry = new PrepareAhead(journal).schedule(claimOf(journal, 'a'));
    await nextTurn();
    expect(entry.isPrepared).toBe(false);
    expect(entry.take()).toEqual({ rows: journal.rowsOf('a'), wire: undefined });
  });

  it("reads the journal again in the claim's turn when the pump's read failed, and throws only a failure there", async () => {
    const journal = journalWith({ a: [row(0, 'a')], b: [row(1, 'b')] });
    const ahead = new PrepareAhead(journal);
    const [a, b] = ['a', 'b'].map((key) => ahead.schedule(claimOf(journal, key)));
    if (a === undefined || b === undefined) throw new Error('test: two scheduled');
    journal.database.exec('ALTER TABLE rows RENAME TO rows_away');
    await nextTurn();
    await nextTurn();
    // The pump tried both and failed: nothing is thrown from it.
    expect([a.isPrepared, b.isPrepared]).toEqual([true, true]);
    expect(() => a.take()).toThrow(/no such table: rows/);
    // A failure that has passed by the claim's turn is no failure.
    journal.database.exec('ALTER TABLE rows_away RENAME TO rows');
    expect(b.take().wire?.body.claim_id).toBe('CLM-b');
  });
});
