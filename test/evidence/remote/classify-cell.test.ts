import { describe, expect, it } from 'vitest';
import {
  classifyEvidenceCell,
  evidenceFileName,
  evidenceSourcesOf,
  parseEvidencePrefix,
} from '../../../src/evidence/remote/index.js';

/**
 * Evidence cells judged on their text alone (docs/mappings.md, "Evidence from object storage and
 * links"): a path stays a path; an s3:// object only under a listed bucket and prefix or the
 * s3:// evidence folder; an https:// link only on a listed host and port; any other scheme refused.
 */

const sources = evidenceSourcesOf(
  { buckets: ['bank-evidence/disputes/', 'scans'], hosts: ['docs.bank.example', 'files.bank.example:8443'] },
  undefined,
);

describe('an evidence cell', () => {
  it('that is a path stays one, judged by the path rules', () => {
    expect(classifyEvidenceCell('receipts/r-1.pdf', sources)).toEqual({
      kind: 'file',
      segments: ['receipts', 'r-1.pdf'],
    });
    expect(classifyEvidenceCell('C://x.pdf', sources)).toMatchObject({ ok: false, code: 'evidence_path_outside' });
    expect(classifyEvidenceCell('../x.pdf', sources)).toMatchObject({ ok: false, code: 'evidence_path_outside' });
  });

  it('under an s3:// evidence folder is a key under its prefix, never above it', () => {
    const folder = parseEvidencePrefix('s3://bank-evidence/night/');
    const underFolder = evidenceSourcesOf(undefined, folder);
    expect(classifyEvidenceCell('receipts\\r-1.pdf', underFolder)).toEqual({
      kind: 'object',
      bucket: 'bank-evidence',
      key: 'night/receipts/r-1.pdf',
    });
    expect(classifyEvidenceCell('a/../../other/x.pdf', underFolder, 'the prefix s3://bank-evidence/night/')).toEqual({
      ok: false,
      code: 'evidence_path_outside',
      message:
        'evidence a/../../other/x.pdf: expected a path inside the evidence directory the prefix s3://bank-evidence/night/, got one that leaves it',
    });
    // The folder itself allows its own keys as addresses too.
    expect(classifyEvidenceCell('s3://bank-evidence/night/x.pdf', underFolder)).toMatchObject({ kind: 'object' });
    expect(classifyEvidenceCell('s3://bank-evidence/nightly/x.pdf', underFolder)).toMatchObject({
      ok: false,
      code: 'evidence_not_allowed',
    });
  });

  it('that is an s3:// object is allowed only under a listed bucket and prefix', () => {
    expect(classifyEvidenceCell('s3://bank-evidence/disputes/2026/r.pdf', sources)).toEqual({
      kind: 'object',
      bucket: 'bank-evidence',
      key: 'disputes/2026/r.pdf',
    });
    expect(classifyEvidenceCell('s3://scans/any/key.png', sources)).toMatchObject({ kind: 'object' });
    expect(classifyEvidenceCell('s3://other/r.pdf', sources)).toEqual({
      ok: false,
      code: 'evidence_not_allowed',
      message:
        "evidence s3://other/r.pdf: expected a bucket and prefix the mapping's evidence_sources.buckets lists " +
        '(s3://bank-evidence/disputes/, s3://scans/), got s3://other/…: nothing was read',
    });
    expect(classifyEvidenceCell('s3://bank-evidence/payroll/r.pdf', sources)).toMatchObject({
      code: 'evidence_not_allowed',
      message: /got s3:\/\/bank-evidence\/… outside the prefixes listed for it: nothing was read$/,
    });
    for (const cell of [
      's3://bank-evidence/disputes/../payroll/r.pdf',
      's3://bank-evidence/disputes//r.pdf',
      's3://bank-evidence/disputes/',
      's3://bank-evidence',
    ])
      expect(classifyEvidenceCell(cell, sources), cell).toMatchObject({ ok: false, code: 'evidence_not_allowed' });
  });

  it('that is an https:// link is allowed only on a listed host and port', () => {
    expect(classifyEvidenceCell('https://DOCS.bank.example/doc/8812', sources)).toMatchObject({ kind: 'link' });
    expect(classifyEvidenceCell('https://docs.bank.example:443/doc', sources)).toMatchObject({ kind: 'link' });
    expect(classifyEvidenceCell('https://files.bank.example:8443/doc', sources)).toMatchObject({ kind: 'link' });
    for (const [cell, got] of [
      ['https://docs.bank.example:8443/doc', 'docs.bank.example:8443'],
      ['https://files.bank.example/doc', 'files.bank.example'],
      ['https://10.1.2.3/doc', '10.1.2.3'],
      ['https://evil.example/doc', 'evil.example'],
    ] as const)
      expect(classifyEvidenceCell(cell, sources), cell).toEqual({
        ok: false,
        code: 'evidence_not_allowed',
        message:
          `evidence ${cell}: expected a host the mapping's evidence_sources.hosts lists ` +
          `(docs.bank.example, files.bank.example:8443), got ${got}: nothing was fetched`,
      });
    expect(classifyEvidenceCell('https://user:pw@docs.bank.example/doc', sources)).toMatchObject({
      code: 'evidence_not_allowed',
    });
  });

  it('with any other scheme is refused, plain http and the metadata address among them', () => {
    for (const cell of [
      'http://127.0.0.1/doc',
      'http://169.254.169.254/latest/meta-data/',
      'ftp://x/y',
      'file:///etc/passwd',
    ])
      expect(classifyEvidenceCell(cell, sources), cell).toMatchObject({
        ok: false,
        code: 'evidence_not_allowed',
        message: /got a [a-z]+:\/\/ address: nothing was fetched$/,
      });
  });

  it('names its upload by its last segment, a link without its query', () => {
    expect(evidenceFileName('receipts/r-1.pdf')).toBe('r-1.pdf');
    expect(evidenceFileName('s3://b/k/scan%201.png')).toBe('scan%201.png');
    expect(evidenceFileName('https://docs.bank.example/doc/statement%201.pdf?sig=abc')).toBe('statement 1.pdf');
    expect(evidenceFileName('https://docs.bank.example/')).toBe('evidence');
  });
});

describe('an s3:// evidence folder', () => {
  it('is a bucket and a prefix read as a folder', () => {
    expect(parseEvidencePrefix('s3://bank-evidence')).toEqual({ bucket: 'bank-evidence', prefix: '' });
    expect(parseEvidencePrefix('s3://bank-evidence/')).toEqual({ bucket: 'bank-evidence', prefix: '' });
    expect(parseEvidencePrefix('s3://bank-evidence/night')).toEqual({ bucket: 'bank-evidence', prefix: 'night/' });
    for (const text of ['s3://Bank/x/', 's3://bank-evidence/a/../b/', 's3://bank-evidence//a/', 's3:///a/'])
      expect(() => parseEvidencePrefix(text), text).toThrow(
        /^--evidence-dir: expected s3:\/\/bucket\/key-prefix\/ .*, got "/,
      );
  });
});
