import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildClaimBody, checkClaimBody } from '../../src/import/claim/body.js';
import { prepareClaim } from '../../src/import/claim/prepare-ahead.js';
import { claimWire, splicedClaimBody } from '../../src/import/claim/wire-body.js';
import { Journal, type ClaimRecord, type RowRecord } from '../../src/import/journal/journal.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';
import type { Mapping } from '../../src/mapping/schema.js';
import { csvOf, fraudRow, genericMapping, type GenericRow } from './e2e-fixtures.js';

/**
 * The new_claim body spliced from the JSON staging stored (wire-body.ts): the same bytes as
 * JSON.stringify of buildClaimBody's value, over claims staged for real (mapped and derived ids,
 * custom fields, issuer evidence, documentation, several cases, escapes); and what only the whole
 * claim shows still refused, with the whole check's own problems.
 */

const journals: Journal[] = [];
const directories: string[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const generic = parseMapping(readFileSync(genericMapping, 'utf8'), genericMapping);

/** Derived ids, the case id mapped last when mapped, custom fields, no issuer evidence. */
function smallMapping(caseIdTemplate?: string): Mapping {
  const caseId = caseIdTemplate === undefined ? '' : `\n  case_id: { template: "${caseIdTemplate}" }`;
  return parseMapping(
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
  transaction.arn: { column: arn }${caseId}
custom_fields:
  note: { column: note }
`,
    'small.yaml',
  );
}

async function staged(
  csv: string,
  mapping: Mapping,
): Promise<{ journal: Journal; claims: (ClaimRecord & { claim_id: string })[] }> {
  const directory = mkdtempSync(join(tmpdir(), 'wire-body-'));
  directories.push(directory);
  const journal = new Journal(join(directory, 'journal.sqlite'));
  journals.push(journal);
  await stageRows({ input: Readable.from([csv]), mapping, journal });
  const claims = journal.database
    .prepare('SELECT * FROM claims WHERE claim_id IS NOT NULL ORDER BY first_idx')
    .all() as (ClaimRecord & { claim_id: string })[];
  return { journal, claims };
}

/** Each claim's old and new bytes, without files and with files on some rows (one id on two rows). */
function expectSameBytes(journal: Journal, claims: readonly (ClaimRecord & { claim_id: string })[]): number {
  let compared = 0;
  for (const claim of claims) {
    const rows = journal.rowsOf(claim.claim_key);
    expect(rows.every((row) => row.outcome === null)).toBe(true);
    const withFiles = new Map(
      rows.map((row, position) => [row.idx, position % 2 === 0 ? ['file_shared', `file_${row.idx}`] : ['file_shared']]),
    );
    for (const fileIds of [new Map<number, string[]>(), withFiles]) {
      const old = Buffer.from(JSON.stringify(buildClaimBody(claim, rows, fileIds)));
      expect(checkClaimBody(buildClaimBody(claim, rows, fileIds), rows).ok).toBe(true);
      expect(splicedClaimBody(claim, rows, fileIds)?.toString()).toBe(old.toString());
      const wire = claimWire(claim, rows, fileIds, true);
      expect(wire.check.ok && Buffer.from(wire.check.checked.body.bytes as Uint8Array).equals(old)).toBe(true);
      expect(wire.body).toEqual(buildClaimBody(claim, rows, fileIds));
      compared++;
    }
  }
  return compared;
}

const awkward = 'Zoë "Ace" O\'Brien \\ 東京 😀\u2028';

describe('splicedClaimBody', () => {
  it('gives the bytes of the built body for claims staged with the generic mapping (mapped ids, custom fields, issuer evidence)', async () => {
    const rows: GenericRow[] = [
      fraudRow('R1', 'T1'),
      fraudRow('R2', 'T1', { cardholder_name: awkward, cardholder_statement: `line one\nline "two" \t ${awkward}` }),
      fraudRow('R3', 'T1', { disputed_amount: '', card_type: '', cardholder_email: '' }),
      fraudRow('R2', 'T2', {
        cardholder_name: awkward,
        cardholder_statement: `line one\nline "two" \t ${awkward}`,
        merchant_name: awkward,
        transaction_amount: '0.01',
        disputed_amount: '0.01',
      }),
      fraudRow('R1', 'T2', { merchant_name: '"case_id": not a key' }),
      fraudRow('R1', 'T3', { currency: 'jpy', transaction_amount: '1200', disputed_amount: '1200' }),
    ];
    const { journal, claims } = await staged(csvOf(rows), generic);
    expect(claims.map((claim) => claim.rows)).toEqual([3, 2, 1]);
    expect(expectSameBytes(journal, claims)).toBe(6);
  });

  it('gives the bytes of the built body for derived ids, a case id mapped after the case, and empty custom fields', async () => {
    const csv = [
      'ref,last4,reason,amount,date,arn,note',
      'A,4242,FR,10.00,2026-03-01,74492156302000184700001,',
      'B,1111,DUP,5.00,2026-03-02,74492156302000184700002,"say ""cases"""',
      'A,4242,FR,20.50,2026-03-03,74492156302000184700003,x\\y',
      'A,4242,FR,0.99,2026-03-04,74492156302000184700004,"é,""claim_id"""',
      '',
    ].join('\n');
    for (const mapping of [smallMapping(), smallMapping('{ref}-{arn}')]) {
      const { journal, claims } = await staged(csv, mapping);
      expect(claims.map((claim) => claim.rows)).toEqual([3, 1]);
      expect(expectSameBytes(journal, claims)).toBe(4);
    }
  });

  it('gives the bytes of the built body for hand-made JSON: empty shared fields and cases, a case id mapped elsewhere, existing documentation replaced', () => {
    const claim = { claim_key: 'k', claim_id: 'CLM-1', shared_json: '{}' } as ClaimRecord & { claim_id: string };
    const rows = [
      { idx: 0, case_id: 'C-1', case_json: '{}' },
      { idx: 1, case_id: 'C-2', case_json: '{"transaction":{"amount":1},"case_id":"C-2","custom_fields":{"a":"b"}}' },
      { idx: 2, case_id: 'C-3', case_json: null },
      { idx: 3, case_id: 'C-4', case_json: '{"case_id":"C-4x","dispute":{}}' },
    ] as RowRecord[];
    const withEvidence = {
      ...claim,
      shared_json: '{"card":{"last4":"4242"},"issuer_evidence":{"documentation":["old"],"issuer_explanation":"x"}}',
    };
    for (const [record, fileIds] of [
      [claim, new Map()],
      [withEvidence, new Map()],
      [
        withEvidence,
        new Map([
          [2, ['f1', 'f2']],
          [0, ['f2']],
        ]),
      ],
      [claim, new Map([[1, ['f1']]])],
    ] as const) {
      expect(splicedClaimBody(record, rows, fileIds)?.toString()).toBe(
        JSON.stringify(buildClaimBody(record, rows, fileIds)),
      );
    }
  });
});

describe('claimWire', () => {
  const claim = {
    claim_key: 'k',
    claim_id: 'CLM-1',
    shared_json: '{"card":{"last4":"4242","network":"visa"},"dispute":{"reason":"fraud"}}',
  } as ClaimRecord & { claim_id: string };
  const caseJson = (arn: string) =>
    JSON.stringify({ transaction: { amount: 100, currency: 'USD', date: '2026-03-01T00:00:00.000Z', arn } });
  const row = (idx: number, caseId: string) =>
    ({ idx, line: idx + 2, case_id: caseId, case_json: caseJson(`ARN${idx}`), outcome: null }) as RowRecord;

  /** The spliced path's check and the full path's: the same answer, and the same problems where there are any. */
  function sameCheck(
    record: ClaimRecord & { claim_id: string },
    rows: RowRecord[],
    fileIds = new Map<number, string[]>(),
  ) {
    const spliced = claimWire(record, rows, fileIds, true);
    const full = claimWire(record, rows, fileIds, false);
    expect(spliced.check).toEqual(full.check);
    expect(spliced.body).toEqual(full.body);
    return spliced.check;
  }

  it('refuses what only the whole claim shows, as the whole check does: a case id twice, an id too long, no case, a bad file id', () => {
    const duplicate = sameCheck(claim, [row(0, 'C-1'), row(1, 'C-1')]);
    expect(!duplicate.ok && [...duplicate.problems]).toEqual([
      [1, { code: 'schema_invalid', field: 'case.case_id', message: 'case.case_id: duplicate case_id C-1' }],
    ]);
    const longCase = sameCheck(claim, [row(0, `${'x'.repeat(125)}-1`)]);
    expect(longCase.ok).toBe(false);
    expect(sameCheck({ ...claim, claim_id: 'y'.repeat(127) }, [row(0, 'C-1')]).ok).toBe(false);
    expect(sameCheck(claim, []).ok).toBe(false);
    expect(sameCheck(claim, [row(0, 'C-1')], new Map([[0, ['']]])).ok).toBe(false);
    expect(
      sameCheck(
        claim,
        [row(0, 'C-1'), row(1, 'C-2')],
        new Map([
          [0, ['f1']],
          [1, ['f1', 'f2']],
        ]),
      ).ok,
    ).toBe(true);
  });

  it('builds and checks whole where the journal was not staged by this process', () => {
    // A case the schema refuses, as a journal staged by another version might hold: the full check says so.
    const rows = [{ ...row(0, 'C-1'), case_json: '{"transaction":{"amount":-5}}' }];
    expect(claimWire(claim, rows, new Map(), false).check.ok).toBe(false);
    const spliced = claimWire(claim, rows, new Map(), true);
    expect(spliced.check.ok).toBe(true);
  });

  it('is what prepareClaim keeps, spliced only for a journal staged here', async () => {
    const { journal, claims } = await staged(csvOf([fraudRow('P1', 'T1'), fraudRow('P1', 'T2')]), generic);
    const [first] = claims;
    if (first === undefined) throw new Error('test: expected a claim');
    const here = prepareClaim(first, journal, true).wire;
    const before = prepareClaim(first, journal).wire;
    expect(here?.check.ok && before?.check.ok).toBe(true);
    expect(here?.check).toEqual(before?.check);
    expect(here?.body).toEqual(before?.body);
  });
});
