import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { derivedCaseId, derivedClaimId, inShard } from '../../src/job-files/claims/ids.js';
import { Journal, type RowRecord } from '../../src/import/journal/journal.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';
import type { Mapping } from '../../src/mapping/schema.js';

/** A small mapping: claim key `ref`, no claim id template, so ids are derived from the key. */
const mapping = parseMapping(
  `
claim: { key: [ref] }
shared:
  card.last4: { column: last4 }
  card.network: { constant: visa }
  dispute.reason: { column: reason, enum: { FR: fraud, DUP: duplicate_charge } }
case:
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
`,
  'test-mapping.yaml',
);

const header = 'ref,last4,reason,amount,date,arn';
const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function stage(lines: string[], shard?: { index: number; count: number }, withMapping: Mapping = mapping) {
  const directory = mkdtempSync(join(tmpdir(), 'stage-'));
  directories.push(directory);
  const journal = new Journal(join(directory, 'journal.sqlite'));
  const summary = await stageRows({
    input: Readable.from([`${[header, ...lines].join('\n')}\n`]),
    mapping: withMapping,
    journal,
    shard,
  });
  const rows = journal.database.prepare('SELECT * FROM rows ORDER BY idx').all() as RowRecord[];
  const claims = journal.database.prepare('SELECT * FROM claims ORDER BY first_idx').all() as {
    claim_key: string;
    claim_id: string | null;
    rows: number;
    sent: number;
  }[];
  journal.close();
  return { summary, rows, claims };
}

describe('stageRows', () => {
  it('groups non-adjacent rows into one claim, with deterministic claim and case ids', async () => {
    const { rows, claims } = await stage([
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001',
      'B,1111,DUP,5.00,2026-03-02,74492156302000184700002',
      'A,4242,FR,20.00,2026-03-03,74492156302000184700003',
    ]);
    expect(claims.map((claim) => [claim.claim_key, claim.rows])).toEqual([
      ['["A"]', 2],
      ['["B"]', 1],
    ]);
    const claimA = derivedClaimId('["A"]');
    expect(claims[0]?.claim_id).toBe(claimA);
    expect(rows.map((row) => [row.line, row.claim_key, row.case_id, row.outcome])).toEqual([
      [2, '["A"]', derivedCaseId(claimA, 0), null],
      [3, '["B"]', derivedCaseId(derivedClaimId('["B"]'), 0), null],
      [4, '["A"]', derivedCaseId(claimA, 1), null],
    ]);
    expect(JSON.parse(rows[2]?.case_json ?? '')).toMatchObject({
      transaction: { amount: 2000, currency: 'USD', arn: '74492156302000184700003' },
    });
  });

  it("keeps the ids derived without claim.id_prefix exactly as they always were (clm_ and the key's sha256)", async () => {
    const { claims } = await stage(['A,4242,FR,10.00,2026-03-01,74492156302000184700001']);
    expect(claims[0]?.claim_id).toBe(`clm_${createHash('sha256').update('["A"]').digest('hex').slice(0, 24)}`);
  });

  it('prefixes derived claim and case ids with claim.id_prefix, so two sources with the same keys never meet', async () => {
    const prefixed = (prefix: string): Mapping => ({ ...mapping, claim: { ...mapping.claim, id_prefix: prefix } });
    const lines = [
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001',
      'A,4242,FR,20.00,2026-03-03,74492156302000184700002',
    ];
    const visa = await stage(lines, undefined, prefixed('visa-2026'));
    const claimId = derivedClaimId('["A"]', 'visa-2026');
    expect(claimId).toBe(`clm_visa-2026_${createHash('sha256').update('visa-2026\n["A"]').digest('hex').slice(0, 24)}`);
    expect(visa.claims.map((claim) => [claim.claim_key, claim.claim_id])).toEqual([['["A"]', claimId]]);
    expect(visa.rows.map((row) => row.case_id)).toEqual([derivedCaseId(claimId, 0), derivedCaseId(claimId, 1)]);
    const mastercard = await stage(lines, undefined, prefixed('mc-2026'));
    expect(mastercard.claims[0]?.claim_id).not.toBe(claimId);
    expect(mastercard.claims[0]?.claim_id).not.toBe(derivedClaimId('["A"]'));
  });

  it('prefixes a mapped case id with claim.id_prefix and a dash', async () => {
    const withCaseId = parseMapping(
      `
claim: { key: [ref], id_prefix: visa-2026 }
shared: { card.last4: { column: last4 }, card.network: { constant: visa }, dispute.reason: { constant: fraud } }
case:
  case_id: { template: "{ref}-{date}" }
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
`,
      'prefixed-case-id.yaml',
    );
    const { rows, claims } = await stage(['A,4242,FR,10.00,2026-03-01,74492156302000184700001'], undefined, withCaseId);
    expect(claims[0]?.claim_id).toBe(derivedClaimId('["A"]', 'visa-2026'));
    expect(rows.map((row) => [row.case_id, row.outcome])).toEqual([['visa-2026-A-2026-03-01', null]]);
  });

  it("makes a row whose shared fields disagree with its claim's first row invalid, naming the field and both values", async () => {
    const { rows } = await stage([
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001',
      'A,9999,FR,20.00,2026-03-03,74492156302000184700002',
    ]);
    expect(rows[1]).toMatchObject({
      outcome: 'invalid',
      error_code: 'shared_field_mismatch',
      error_field: 'shared.card.last4',
      error_message: 'shared.card.last4: expected "4242" as on line 2 (the claim\'s first row), got "9999"',
    });
  });

  it('keeps a row that does not map in its claim, so the claim is never sent without it', async () => {
    const { rows, claims } = await stage([
      'A,4242,XX,10.00,2026-03-01,74492156302000184700001',
      'A,4242,FR,20.00,2026-03-03,74492156302000184700002',
    ]);
    expect(rows[0]).toMatchObject({
      claim_key: '["A"]',
      outcome: 'invalid',
      error_code: 'enum_unmapped',
      error_field: 'shared.dispute.reason',
    });
    expect(claims).toHaveLength(1);
    // The later, good row names the claim.
    expect(claims[0]).toMatchObject({ claim_id: derivedClaimId('["A"]'), rows: 2 });
  });

  it('reports every input record exactly once, bad CSV records and blank keys included', async () => {
    const { rows, summary } = await stage([
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001',
      'B,1,2',
      ',4242,FR,10.00,2026-03-01,74492156302000184700009',
    ]);
    expect(summary.rowsRead).toBe(3);
    expect(rows.map((row) => [row.line, row.outcome, row.error_code])).toEqual([
      [2, null, null],
      [3, 'invalid', 'csv_column_count'],
      [4, 'invalid', 'required_missing'],
    ]);
    // The unreadable record keeps its cells for the results file.
    expect(JSON.parse(rows[1]?.source ?? '')).toEqual(['B', '1', '2']);
  });

  it('refuses a case id used twice', async () => {
    const withCaseId = parseMapping(
      `
claim: { key: [ref] }
shared: { card.last4: { column: last4 }, card.network: { constant: visa }, dispute.reason: { constant: fraud } }
case:
  case_id: { column: arn }
  transaction.amount: { column: amount, type: amount, amount: { currency: USD, decimal_separator: "." } }
  transaction.currency: { constant: USD }
  transaction.date: { column: date, type: date, date: { format: yyyy-MM-dd } }
  transaction.arn: { column: arn }
`,
      'case-id.yaml',
    );
    const directory = mkdtempSync(join(tmpdir(), 'stage-'));
    directories.push(directory);
    const journal = new Journal(join(directory, 'journal.sqlite'));
    const input = Readable.from([
      // Another amount: the same ARN and amount would be a duplicate, never staged as a case.
      `${header}\nA,4242,FR,1.00,2026-03-01,74492156302000184700001\nB,4242,FR,2.00,2026-03-01,74492156302000184700001\n`,
    ]);
    await stageRows({ input, mapping: withCaseId, journal });
    const rows = journal.database.prepare('SELECT outcome, error_code FROM rows ORDER BY idx').all();
    journal.close();
    expect(rows).toEqual([
      { outcome: null, error_code: null },
      { outcome: 'invalid', error_code: 'case_id_duplicate' },
    ]);
  });

  it('checks each row against the strict wire schema, naming the mapping field', async () => {
    // Not digits: the wire schema's refusal (a short run of digits is a spreadsheet's dropped zeros: spreadsheet-damage.test.ts).
    const { rows } = await stage(['A,42x,FR,10.00,2026-03-01,74492156302000184700001']);
    expect(rows[0]).toMatchObject({
      outcome: 'invalid',
      error_code: 'schema_invalid',
      error_field: 'shared.card.last4',
    });
  });

  it("reports a case error on a later row of a valid claim as on a claim's only row (shared fields checked once)", async () => {
    // A's first row passes whole, so A's second row is checked on its case alone; B's only row is checked whole.
    const { rows } = await stage([
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001',
      'A,4242,FR,10.00,2026-03-02,',
      'B,4242,FR,10.00,2026-03-02,',
      'A,4242,FR,10.00,2026-03-03,74492156302000184700003',
    ]);
    expect(rows.map((row) => [row.outcome, row.error_field, row.error_message])).toEqual([
      [null, null, null],
      [
        'invalid',
        'case.transaction.arn',
        'case.transaction.arn: expected transaction.arn or a network_details switch_serial_number',
      ],
      [
        'invalid',
        'case.transaction.arn',
        'case.transaction.arn: expected transaction.arn or a network_details switch_serial_number',
      ],
      [null, null, null],
    ]);
  });

  it('counts and numbers the rows of a claim whose rows are further apart than the claims kept in memory', async () => {
    // 5,000 one-row claims between A's two rows: A has left staging's memory of recent claims
    // (4,096) when its second row comes, so its count is read back from the journal.
    const between = Array.from(
      { length: 5000 },
      (_, index) => `F${index},4242,FR,1.00,2026-03-01,7${String(index).padStart(22, '0')}`,
    );
    const { rows, claims } = await stage([
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001',
      ...between,
      'A,4242,FR,20.00,2026-03-03,74492156302000184700002',
      'A,9999,FR,30.00,2026-03-04,74492156302000184700003',
    ]);
    const claimA = derivedClaimId('["A"]');
    expect(claims.find((claim) => claim.claim_key === '["A"]')).toMatchObject({ claim_id: claimA, rows: 3 });
    expect(claims.filter((claim) => claim.rows !== 1).map((claim) => claim.claim_key)).toEqual(['["A"]']);
    const rowsOfA = rows.filter((row) => row.claim_key === '["A"]');
    expect(rowsOfA.map((row) => [row.line, row.ordinal, row.case_id, row.error_code])).toEqual([
      [2, 0, derivedCaseId(claimA, 0), null],
      [5003, 1, derivedCaseId(claimA, 1), null],
      // Its first row's shared fields are read back from the journal too.
      [5004, 2, null, 'shared_field_mismatch'],
    ]);
  });

  it('splits claims across shards with no overlap and no gap', async () => {
    const lines = Array.from(
      { length: 40 },
      (_, index) => `R${index % 17},4242,FR,1.00,2026-03-01,8${String(index).padStart(22, '0')}`,
    );
    const shards = await Promise.all([1, 2, 3].map(async (index) => stage([...lines, 'x,y'], { index, count: 3 })));
    const staged = shards.flatMap((shard) => shard.rows.map((row) => row.idx)).sort((left, right) => left - right);
    expect(staged).toEqual(Array.from({ length: 41 }, (_, index) => index));
    // A row without a key belongs to shard 1.
    expect(inShard(undefined, { index: 1, count: 3 })).toBe(true);
    expect(inShard(undefined, { index: 2, count: 3 })).toBe(false);
  });
});
