import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { newClaimBody } from '../../src/api/schemas/claim.js';
import { v1ReasonToV2 } from '../../src/sandbox/v1-to-v2.js';
import { readRows } from '../../src/csv/read-rows.js';
import { loadMapping } from '../../src/mapping/load.js';
import { mapRow, type MappedRow } from '../../src/mapping/map-row.js';
import type { Mapping } from '../../src/mapping/schema.js';
import { filingErrors } from '../../src/filing-rules/filing-errors.js';
import { newClaimCase, type NewClaimShared } from '../../src/filing-rules/new-claim-case.js';

/**
 * The shipped mappings with their samples (mappings/README.md, samples/README.md): every row maps,
 * every claim assembles into a valid new_claim that the sandbox would file, and every evidence
 * file is a real JPEG, PNG or PDF. So the samples cannot rot.
 */

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const evidenceDir = root('samples/evidence');
/** The sandbox clock the samples are written for: every claim is inside its filing window then. */
const sampleNowMs = Date.parse('2026-11-20T12:00:00Z');

interface SampleRow {
  line: number;
  index: number;
  cells: Readonly<Record<string, string>>;
  mapped: MappedRow;
}

async function mappedSample(mappingFile: string, csvFile: string): Promise<{ mapping: Mapping; rows: SampleRow[] }> {
  const mapping = await loadMapping(root(mappingFile));
  const rows: SampleRow[] = [];
  for await (const row of readRows(createReadStream(root(csvFile)), mapping.csv)) {
    if ('error' in row) throw new Error(`${csvFile}:${row.line}: expected a readable record, got ${row.error.message}`);
    const result = mapRow(row.cells, mapping);
    if (!result.ok)
      throw new Error(`${csvFile}:${row.line}: expected a mapped row, got ${JSON.stringify(result.errors)}`);
    rows.push({ line: row.line, index: row.index, cells: row.cells, mapped: result.row });
  }
  return { mapping, rows };
}

function claimsOf(rows: SampleRow[]): Map<string, SampleRow[]> {
  const claims = new Map<string, SampleRow[]>();
  for (const row of rows) claims.set(row.mapped.claimKey, [...(claims.get(row.mapped.claimKey) ?? []), row]);
  return claims;
}

const signatures: Record<string, Buffer> = {
  '.jpg': Buffer.from([0xff, 0xd8, 0xff]),
  '.jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  '.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  '.pdf': Buffer.from('%PDF-', 'latin1'),
};

/** Every chunk's CRC-32 over its type and data, up to IEND. */
function pngChunksIntact(bytes: Buffer): boolean {
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const typed = bytes.subarray(offset + 4, offset + 8 + length);
    if (crc32(typed) !== bytes.readUInt32BE(offset + 8 + length)) return false;
    if (typed.subarray(0, 4).toString('latin1') === 'IEND') return offset + 12 === bytes.length;
    offset += 12 + length;
  }
  return false;
}

async function checkEvidenceFile(path: string): Promise<void> {
  const absolute = resolve(evidenceDir, path);
  expect(relative(evidenceDir, absolute).startsWith('..'), `${path} stays inside samples/evidence`).toBe(false);
  const bytes = await readFile(absolute);
  expect(bytes.length, `${path}: a few KB`).toBeLessThan(16 * 1024);
  const signature = signatures[extname(path).toLowerCase()];
  expect(signature, `${path}: a .jpg, .png or .pdf`).toBeDefined();
  expect(
    bytes.subarray(0, signature?.length).equals(signature ?? Buffer.alloc(0)),
    `${path}: magic bytes match its extension`,
  ).toBe(true);
  if (path.endsWith('.png')) expect(pngChunksIntact(bytes), `${path}: chunk CRCs`).toBe(true);
  if (path.endsWith('.jpg'))
    expect(bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9])), `${path}: ends with EOI`).toBe(true);
  if (path.endsWith('.pdf')) {
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    expect(pages, `${path}: 1 to 5 pages`).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(5);
  }
}

/** Each claim as new_claim (evidence as stand-in file ids) and each case as the sandbox would review it. */
function checkClaims(rows: SampleRow[]): void {
  for (const [key, claimRows] of claimsOf(rows)) {
    const [first] = claimRows;
    if (first === undefined) continue;
    for (const row of claimRows)
      expect(row.mapped.shared, `${key}: shared fields agree on line ${row.line}`).toEqual(first.mapped.shared);
    const categoryById = new Map<string, string>();
    const paths = [
      ...new Set(claimRows.flatMap((row) => row.mapped.evidence.map((item) => `${item.category}:${item.path}`))),
    ];
    paths.forEach((entry, index) => categoryById.set(`file_${index}`, entry.split(':')[0] ?? ''));
    const shared = first.mapped.shared as NewClaimShared;
    const issuerEvidence = { ...shared.issuer_evidence, documentation: [...categoryById.keys()] };
    const body = {
      claim_id: first.mapped.claimId,
      ...shared,
      issuer_evidence: issuerEvidence,
      cases: claimRows.map((row) => ({ ...row.mapped.case, custom_fields: row.mapped.customFields })),
    };
    expect(newClaimBody.safeParse(body).error?.issues ?? [], key).toEqual([]);
    for (const row of claimRows) {
      // The case as the sandbox stores it from this body, which the filing rules read.
      const caseView = newClaimCase(
        { ...shared, issuer_evidence: issuerEvidence },
        {
          transaction: {},
          ...row.mapped.case,
        },
      );
      expect(
        filingErrors(caseView, (id) => categoryById.get(id), sampleNowMs),
        `${key}, line ${row.line}: fileable`,
      ).toEqual([]);
    }
  }
}

const magicValues = [
  'valid_evidence',
  'invalid_evidence',
  'merchant_liable',
  'issuer_liable',
  'valid_document',
  'invalid_document',
];

describe.each([
  ['mappings/generic.yaml', 'samples/generic-export.csv'],
  ['mappings/v1-cases.yaml', 'samples/v1-cases.csv'],
])('%s with %s', (mappingFile, csvFile) => {
  it('maps every row, and every claim is a valid new_claim the sandbox would file', async () => {
    const { rows } = await mappedSample(mappingFile, csvFile);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    checkClaims(rows);
  });

  it('names only evidence files that exist and are what their extension says', async () => {
    const { rows } = await mappedSample(mappingFile, csvFile);
    const paths = new Set(rows.flatMap((row) => row.mapped.evidence.map((item) => item.path)));
    expect(paths.size).toBeGreaterThan(0);
    for (const path of paths) await checkEvidenceFile(path);
  });

  it('holds no test-mode magic value', async () => {
    const text = await readFile(root(csvFile), 'utf8');
    for (const word of magicValues) expect(text, word).not.toContain(word);
  });
});

describe('samples/generic-export.csv', () => {
  it('has a claim of two rows that are not adjacent', async () => {
    const { rows } = await mappedSample('mappings/generic.yaml', 'samples/generic-export.csv');
    const split = [...claimsOf(rows).values()].filter(
      (claim) => claim.length === 2 && (claim[1]?.index ?? 0) - (claim[0]?.index ?? 0) > 1,
    );
    expect(split.map((claim) => claim[0]?.mapped.claimKey)).toEqual(['["D-2026-0101"]']);
  });

  it('has one evidence file referenced by three rows of two claims', async () => {
    const { rows } = await mappedSample('mappings/generic.yaml', 'samples/generic-export.csv');
    const rowsByPath = new Map<string, SampleRow[]>();
    for (const row of rows)
      for (const { path } of row.mapped.evidence) rowsByPath.set(path, [...(rowsByPath.get(path) ?? []), row]);
    const shared = [...rowsByPath].filter(([, referencing]) => referencing.length === 3);
    expect(shared.map(([path]) => path)).toEqual(['correspondence/northwind-support-reply.png']);
    expect(new Set(shared[0]?.[1].map((row) => row.mapped.claimKey)).size).toBe(2);
  });

  it('mixes reasons and currencies, and writes expiry years with two and four digits', async () => {
    const { rows } = await mappedSample('mappings/generic.yaml', 'samples/generic-export.csv');
    const reasons = new Set(rows.map((row) => (row.mapped.shared.dispute as { reason: string }).reason));
    expect([...reasons].sort()).toEqual([
      'credit_not_processed',
      'duplicate_charge',
      'fraud',
      'product_not_as_described',
      'product_not_received',
    ]);
    const currencies = new Set(rows.map((row) => (row.mapped.case.transaction as { currency: string }).currency));
    expect(currencies).toEqual(new Set(['EUR', 'GBP', 'JPY', 'USD']));
    const expiries = rows.map((row) => row.cells.card_expiry ?? '');
    expect(expiries.some((expiry) => /^\d\d\/\d\d$/.test(expiry))).toBe(true);
    expect(expiries.some((expiry) => /^\d\d\/\d{4}$/.test(expiry))).toBe(true);
    expect(new Set(rows.map((row) => (row.mapped.shared.card as { expiry_year: number }).expiry_year))).toEqual(
      new Set([2027, 2028, 2029]),
    );
  });
});

describe('mappings/v1-cases.yaml', () => {
  it('maps the v1 reasons as the v1-to-v2 conversion does', async () => {
    const mapping = await loadMapping(root('mappings/v1-cases.yaml'));
    expect(mapping.shared['dispute.reason']?.enum).toEqual(v1ReasonToV2);
  });

  it('makes one claim per v1 case, keeping the v1 case id', async () => {
    const { rows } = await mappedSample('mappings/v1-cases.yaml', 'samples/v1-cases.csv');
    expect(claimsOf(rows).size).toBe(rows.length);
    for (const row of rows) expect(row.mapped.case.case_id).toBe(row.cells.case_id);
    const reasons = rows.map(
      (row) => `${row.cells.reason ?? ''}→${(row.mapped.shared.dispute as { reason: string }).reason}`,
    );
    expect(reasons).toContain('duplicate→duplicate_charge');
    expect(reasons).toContain('canceled_recurring→subscription_canceled');
  });
});
