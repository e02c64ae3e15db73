import { createHash } from 'node:crypto';
import { chmod, mkdir, symlink, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSizeLimitBytes } from '../../src/files/limits.js';
import { readEvidenceFile } from '../../src/evidence/index.js';
import { jpegMagicBytes, makeEvidenceTree, pdfBytes, pngMagicBytes, type EvidenceTree } from './fixtures.js';

let tree: EvidenceTree;
beforeEach(async () => {
  tree = await makeEvidenceTree();
});
afterEach(async () => {
  await tree.remove();
});

describe('readEvidenceFile accepts', () => {
  it('a PNG, with its hash, type and size', async () => {
    const bytes = pngMagicBytes();
    const path = await tree.write('evidence/receipt.png', bytes);
    expect(await readEvidenceFile(path, 'receipt.png')).toEqual({
      ok: true,
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      contentType: 'image/png',
      size: bytes.length,
    });
  });

  it('a JPEG of one byte under the limit (the sandbox refuses the limit itself: "under 4.5 MB")', async () => {
    expect(fileSizeLimitBytes).toBe(4_500_000);
    const path = await tree.write('evidence/scan.jpg', jpegMagicBytes(4_499_999));
    expect(await readEvidenceFile(path, 'scan.jpg')).toMatchObject({
      ok: true,
      contentType: 'image/jpeg',
      size: 4_499_999,
    });
  });

  it('a PDF of 5 pages', async () => {
    const path = await tree.write('evidence/letter.pdf', await pdfBytes(5));
    expect(await readEvidenceFile(path, 'letter.pdf')).toMatchObject({ ok: true, contentType: 'application/pdf' });
  });

  it('a JPEG named .pdf: the content decides', async () => {
    const path = await tree.write('evidence/photo.pdf', jpegMagicBytes(100));
    expect(await readEvidenceFile(path, 'photo.pdf')).toMatchObject({ ok: true, contentType: 'image/jpeg' });
  });
});

describe('readEvidenceFile refuses', () => {
  it('an empty file', async () => {
    const path = await tree.write('evidence/empty.png', '');
    expect(await readEvidenceFile(path, 'empty.png')).toEqual({
      ok: false,
      code: 'evidence_empty',
      message: 'evidence empty.png: expected a file with content, got 0 bytes',
    });
  });

  it('a JPEG of exactly 4,500,000 bytes, as the sandbox does', async () => {
    const path = await tree.write('evidence/scan.jpg', jpegMagicBytes(4_500_000));
    expect(await readEvidenceFile(path, 'scan.jpg')).toEqual({
      ok: false,
      code: 'evidence_too_large',
      message: 'evidence scan.jpg: expected under 4.5 MB, got 4,500,000 bytes',
    });
  });

  it('a 10 GB file at once, without reading it', async () => {
    const path = await tree.write('evidence/huge.jpg', jpegMagicBytes(16));
    await truncate(path, 10_000_000_000); // sparse: no disk used
    expect(await readEvidenceFile(path, 'huge.jpg')).toMatchObject({
      ok: false,
      code: 'evidence_too_large',
      message: /got 10,000,000,000 bytes$/,
    });
  });

  it('a text file named .png, without quoting its content', async () => {
    const path = await tree.write('evidence/notes.png', 'card 4111111111111111, see attached\n');
    const result = await readEvidenceFile(path, 'notes.png');
    expect(result).toEqual({
      ok: false,
      code: 'evidence_type_unsupported',
      message: 'evidence notes.png: expected a JPEG, PNG or PDF file (decided by its content, not its name), got text',
    });
  });

  it('binary content of another type (a GIF)', async () => {
    const path = await tree.write('evidence/anim.png', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1'));
    expect(await readEvidenceFile(path, 'anim.png')).toMatchObject({
      ok: false,
      code: 'evidence_type_unsupported',
      message: /got binary content of another type$/,
    });
  });

  it('a PDF that cannot be parsed', async () => {
    const path = await tree.write('evidence/broken.pdf', '%PDF-1.7\nthis is not a pdf body\n');
    expect(await readEvidenceFile(path, 'broken.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_pdf_unreadable',
      message: /^evidence broken\.pdf: expected a readable PDF document, got /,
    });
  });

  it('a PDF without pages (the sandbox refuses it too)', async () => {
    const path = await tree.write('evidence/blank.pdf', await pdfBytes(0));
    expect(await readEvidenceFile(path, 'blank.pdf')).toMatchObject({ ok: false, code: 'evidence_pdf_no_pages' });
  });

  it('a PDF of 6 pages', async () => {
    const path = await tree.write('evidence/letter.pdf', await pdfBytes(6));
    expect(await readEvidenceFile(path, 'letter.pdf')).toEqual({
      ok: false,
      code: 'evidence_pdf_too_many_pages',
      message: 'evidence letter.pdf: expected at most 5 PDF pages, got 6',
    });
  });

  it('a missing file', async () => {
    expect(await readEvidenceFile(join(tree.evidenceDir, 'gone.pdf'), 'gone.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_not_found',
    });
  });

  it('a directory', async () => {
    await mkdir(join(tree.evidenceDir, 'sub'));
    expect(await readEvidenceFile(join(tree.evidenceDir, 'sub'), 'sub')).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: /got a directory$/,
    });
  });

  it('a symbolic link swapped in after the check: O_NOFOLLOW, not followed', async () => {
    await tree.write('outside/secret.pdf', await pdfBytes(1));
    const link = join(tree.evidenceDir, 'scan.pdf');
    await symlink(join(tree.outsideDir, 'secret.pdf'), link);
    expect(await readEvidenceFile(link, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: /got a symbolic link/,
    });
  });

  it('a named pipe, without waiting for a writer (O_NONBLOCK, then fstat)', async () => {
    const pipe = tree.fifo('evidence/scan.pdf');
    expect(await readEvidenceFile(pipe, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: /got a named pipe$/,
    });
  }, 5_000);

  // root reads any file whatever its mode, so there is nothing to refuse.
  it.skipIf(process.getuid?.() === 0)('a file it may not read', async () => {
    const path = await tree.write('evidence/locked.pdf', await pdfBytes(1));
    await chmod(path, 0o000);
    expect(await readEvidenceFile(path, 'locked.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_unreadable',
      message: /got permission denied$/,
    });
  });

  it('naming the file by its path when no cell is given', async () => {
    const path = await tree.write('evidence/empty.png', '');
    expect(await readEvidenceFile(path)).toMatchObject({
      message: `evidence ${path}: expected a file with content, got 0 bytes`,
    });
  });
});
