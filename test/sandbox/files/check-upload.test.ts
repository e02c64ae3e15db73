import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkUpload, type CollectedParts } from '../../../src/sandbox/files/check-upload.js';
import { fileContent } from '../../../src/sandbox/files/file-content.js';
import { SandboxHttpError } from '../../../src/sandbox/http/errors.js';
import { pdfBytes, pngBytes } from './fixtures.js';

/** The pure decisions, with parts as plain values: no server, no stream. */

function parts(overrides: Partial<CollectedParts> = {}): CollectedParts {
  return {
    categories: [{ value: 'other', truncated: false }],
    file: { filename: 'a.png', content: fileContent([pngBytes()]) },
    fileSentAsPlainField: false,
    issues: [],
    ...overrides,
  };
}

async function refusalOf(collected: CollectedParts): Promise<SandboxHttpError> {
  const error: unknown = await checkUpload(collected).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SandboxHttpError)) throw new Error('checkUpload: expected a SandboxHttpError, got none');
  return error;
}

describe('checkUpload', () => {
  it('accepts, with the content address of the exact bytes', async () => {
    const bytes = pngBytes();
    const content = fileContent([bytes]);
    expect(await checkUpload(parts({ file: { filename: 'x.png', content } }))).toEqual({
      category: 'other',
      filename: 'x.png',
      contentType: 'image/png',
      content,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });

  it('decides on content that arrived in pieces as on the same bytes in one (type, hash, pages)', async () => {
    // One byte a piece: the signature, the PDF header window and the hash all span pieces.
    const inBytes = (bytes: Buffer) => fileContent(Array.from(bytes, (byte) => Buffer.from([byte])));
    const png = pngBytes();
    const whole = await checkUpload(parts({ file: { filename: 'x.png', content: fileContent([png]) } }));
    expect(await checkUpload(parts({ file: { filename: 'x.png', content: inBytes(png) } }))).toMatchObject({
      contentType: 'image/png',
      sha256: whole.sha256,
    });
    const pdf = await pdfBytes(3);
    expect(await checkUpload(parts({ file: { filename: 'a.pdf', content: inBytes(pdf) } }))).toMatchObject({
      contentType: 'application/pdf',
      pageCount: 3,
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
    const text = Buffer.from('hello, not an image at all');
    const error = await refusalOf(parts({ file: { filename: 'n.png', content: inBytes(text) } }));
    expect(error.body.message).toContain('got text/plain-looking bytes named "n.png"');
  });

  it('reports the page count of an accepted PDF', async () => {
    expect(
      await checkUpload(parts({ file: { filename: 'a.pdf', content: fileContent([await pdfBytes(2)]) } })),
    ).toMatchObject({ contentType: 'application/pdf', pageCount: 2 });
  });

  it.each([
    [
      'two categories',
      [
        { value: 'other', truncated: false },
        { value: 'unknown', truncated: false },
      ],
      'category: expected one of counterfeit_evidence, merchant_correspondence, other, prior_transaction_receipt, refund_promise, transaction_receipt, unknown, valid_document, invalid_document, got 2 category parts',
    ],
    [
      'a category cut at the field size',
      [{ value: 'o'.repeat(1024), truncated: true }],
      /got a value too long to be a category$/,
    ],
    ['a category that differs only in case', [{ value: 'Other', truncated: false }], /got "Other"$/],
  ])('refuses %s', async (_name, categories, message) => {
    const error = await refusalOf(parts({ categories }));
    expect(error.status).toBe(400);
    expect(error.body).toMatchObject({ errors: [{ code: 'category_invalid', details: { field: 'category' } }] });
    expect(error.body.message).toMatch(message);
  });

  it('refuses a PDF without pages', async () => {
    const bytes = Buffer.from(await (await PDFDocument.create()).save({ addDefaultPage: false }));
    const error = await refusalOf(parts({ file: { filename: 'blank.pdf', content: fileContent([bytes]) } }));
    expect(error.body).toEqual({
      message: 'file: expected at least 1 PDF page, got 0',
      errors: [
        { code: 'pdf_no_pages', details: { field: 'file' }, message: 'file: expected at least 1 PDF page, got 0' },
      ],
    });
  });

  it("lists every problem in one answer, the parser's first, and joins them in the message", async () => {
    const error = await refusalOf({
      categories: [],
      file: { filename: 'a.gif', content: fileContent([Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')]) },
      fileSentAsPlainField: false,
      issues: [
        {
          code: 'parameter_unknown',
          details: { field: 'purpose' },
          message: 'purpose: expected only the parts file and category, got a part named "purpose"',
        },
      ],
    });
    expect(error.body.message).toMatch(
      /^purpose: .*; category: .*; file: expected a JPEG, PNG or PDF file \(decided by its content\), got binary bytes starting 47 49 46 38 39 61 01 00 named "a.gif"$/,
    );
    expect(error.body).toMatchObject({
      errors: [{ code: 'parameter_unknown' }, { code: 'category_missing' }, { code: 'file_type_unsupported' }],
    });
  });

  it('quotes a hostile filename short and escaped', async () => {
    const error = await refusalOf(
      parts({ file: { filename: `${'"\n'.repeat(100)}.png`, content: fileContent([Buffer.from('hello')]) } }),
    );
    expect(error.body.message).toMatch(/named "(\\"\\n){50}…"$/);
  });
});
