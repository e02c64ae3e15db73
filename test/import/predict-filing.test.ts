import { describe, expect, it } from 'vitest';
import type { RowRecord } from '../../src/job-files/import/records.js';
import type { ClaimBody } from '../../src/import/claim/body.js';
import type { CheckedFile } from '../../src/import/claim/evidence.js';
import { predictFiling } from '../../src/import/claim/predict-filing.js';

/**
 * The dry run's documentation as the real run's would be (docs/import.md, "A dry run"): one file
 * id per content and category, each its mapping entry's category, and file ids a mapping gives
 * itself not judged. The row by row comparison with a real run is dry-run-predicts-filing.test.ts.
 */

const nowMs = Date.parse('2026-11-20T12:00:00Z');

function rowOf(idx: number): RowRecord {
  const none = { source: '', claim_key: 'K', ordinal: idx, case_json: null, evidence_json: null, file_ids: null };
  return {
    ...none,
    idx,
    line: idx + 2,
    case_id: `C-${idx}`,
    changed_fields: null,
    reported_case_id: null,
    warnings: null,
    outcome: null,
    error_code: null,
    error_message: null,
    error_field: null,
    http_status: null,
  };
}

function fileOf(sha256: string, category: string): CheckedFile {
  return {
    sha256,
    bytes: Buffer.alloc(0),
    contentType: 'application/pdf',
    path: `${sha256}.pdf`,
    category,
    column: 'c',
  };
}

/** A duplicate charge of one case per row, its issuer evidence as given. */
function bodyOf(rows: number, issuerEvidence: object = {}): ClaimBody {
  const item = (index: number) => ({
    case_id: `C-${index}`,
    dispute: { amount: 1000, currency: 'EUR' },
    transaction: { date: '2026-11-01T00:00:00.000Z', amount: 1000, currency: 'EUR', arn: `${index}` },
  });
  return {
    claim_id: 'CLM-K',
    dispute: { reason: 'duplicate_charge' },
    issuer_evidence: issuerEvidence,
    cases: Array.from({ length: rows }, (_, index) => item(index)),
  } as unknown as ClaimBody;
}

const receiptMissing = {
  code: 'documentation_missing',
  message: 'duplicate_charge: a transaction receipt is required',
  field: undefined,
};

describe('predictFiling', () => {
  it("takes a file's category from the entry that named it, the claim's files for every case", () => {
    const rows = [rowOf(0), rowOf(1)];
    const asMail = new Map([[0, [fileOf('aa', 'merchant_correspondence')]]]);
    expect(predictFiling(bodyOf(2), rows, asMail, nowMs)).toEqual(
      new Map([
        [0, receiptMissing],
        [1, receiptMissing],
      ]),
    );
    // The same content named once more as a receipt is a second upload, under its own category.
    const alsoReceipt = new Map([
      [0, [fileOf('aa', 'merchant_correspondence')]],
      [1, [fileOf('aa', 'transaction_receipt')]],
    ]);
    expect(predictFiling(bodyOf(2), rows, alsoReceipt, nowMs)).toEqual(new Map());
  });

  it('does not judge the documentation of a claim whose mapping gives file ids (their category is the service’s)', () => {
    const rows = [rowOf(0)];
    expect(predictFiling(bodyOf(1, { documentation: ['file_from_elsewhere'] }), rows, new Map(), nowMs)).toEqual(
      new Map(),
    );
    expect(predictFiling(bodyOf(1), rows, new Map(), nowMs)).toEqual(new Map([[0, receiptMissing]]));
  });
});
