import { createHash } from 'node:crypto';
import { realpath, stat, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkEvidence, evidenceErrorCodes, type EvidenceErrorCode } from '../../src/evidence/index.js';
import { jpegMagicBytes, makeEvidenceTree, pdfBytes, pngMagicBytes, type EvidenceTree } from './fixtures.js';
import { objectStreamBomb } from '../files/pdf-bombs.js';

let tree: EvidenceTree;
beforeEach(async () => {
  tree = await makeEvidenceTree();
});
afterEach(async () => {
  await tree.remove();
});

describe('checkEvidence', () => {
  it('returns the checked bytes and the real path', async () => {
    const bytes = await pdfBytes(2);
    const path = await tree.write('evidence/2024/letter.pdf', bytes);
    expect(await checkEvidence(tree.evidenceDir, '2024\\letter.pdf')).toEqual({
      ok: true,
      path: await realpath(path),
      bytes: Buffer.from(bytes),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      contentType: 'application/pdf',
      size: bytes.length,
    });
  });

  it('follows a symbolic link to another file inside', async () => {
    await tree.write('evidence/real.png', pngMagicBytes());
    await symlink('real.png', join(tree.evidenceDir, 'alias.png'));
    expect(await checkEvidence(tree.evidenceDir, 'alias.png')).toMatchObject({
      ok: true,
      path: await realpath(join(tree.evidenceDir, 'real.png')),
    });
  });

  it('names the cell, not the resolved path, in messages', async () => {
    await tree.write('evidence/sub/scan.jpg', jpegMagicBytes(4_500_000));
    expect(await checkEvidence(tree.evidenceDir, 'sub/./scan.jpg')).toMatchObject({
      code: 'evidence_too_large',
      message: /^evidence sub\/\.\/scan\.jpg: /,
    });
  });

  it('names a directory inside as what it is, not a file', async () => {
    await tree.write('evidence/sub/x.pdf', 'x');
    expect(await checkEvidence(tree.evidenceDir, 'sub')).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: 'evidence sub: expected a regular file, got a directory',
    });
  });

  it('names a named pipe inside as what it is, without waiting for a writer', async () => {
    tree.fifo('evidence/scan.pdf');
    expect(await checkEvidence(tree.evidenceDir, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: 'evidence scan.pdf: expected a regular file, got a named pipe',
    });
  }, 5_000);
});

/**
 * Escapes must be refused before anything outside is opened. The target is a named pipe:
 * opening it for reading blocks until a writer comes (none does), so the path step, which opens
 * nothing, would hang the test if it did. The read step opens with O_NONBLOCK and would answer
 * evidence_not_a_file, so `evidence_path_outside` shows the path step refused first.
 */
describe('checkEvidence never opens a file outside the evidence directory', () => {
  beforeEach(() => {
    tree.fifo('outside/passwd');
  });

  it.each(['../outside/passwd', 'sub/../../outside/passwd', '..\\outside\\passwd'])(
    '%s',
    async (cell) => {
      expect(await checkEvidence(tree.evidenceDir, cell)).toMatchObject({ ok: false, code: 'evidence_path_outside' });
    },
    5_000,
  );

  it('by its absolute path', async () => {
    expect(await checkEvidence(tree.evidenceDir, join(tree.outsideDir, 'passwd'))).toMatchObject({
      ok: false,
      code: 'evidence_path_outside',
    });
  }, 5_000);

  it('through a symbolic link inside', async () => {
    await symlink(join(tree.outsideDir, 'passwd'), join(tree.evidenceDir, 'scan.pdf'));
    expect(await checkEvidence(tree.evidenceDir, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_path_outside',
    });
  }, 5_000);
});

describe('every error code', () => {
  type SetUp = (tree: EvidenceTree) => Promise<string>;
  const cell =
    (text: string): SetUp =>
    async () =>
      text;
  const file =
    (name: string, content: () => string | Uint8Array | Promise<Uint8Array>): SetUp =>
    async (t) => {
      await t.write(`evidence/${name}`, await content());
      return name;
    };
  const loop: SetUp = async (t) => {
    await symlink('loop.pdf', join(t.evidenceDir, 'loop.pdf'));
    return 'loop.pdf';
  };
  const cases: [EvidenceErrorCode, SetUp][] = [
    ['evidence_path_empty', cell('')],
    ['evidence_path_invalid', cell('a\0b.pdf')],
    ['evidence_path_outside', cell('../../etc/passwd')],
    ['evidence_not_found', cell('missing.pdf')],
    ['evidence_not_a_file', async (t) => (await file('sub/x.pdf', () => 'x')(t)).split('/')[0] ?? ''],
    ['evidence_unreadable', loop],
    ['evidence_empty', file('e.png', () => '')],
    ['evidence_too_large', file('big.jpg', () => jpegMagicBytes(4_500_001))],
    ['evidence_type_unsupported', file('notes.png', () => 'hello')],
    ['evidence_pdf_unreadable', file('b.pdf', () => '%PDF-1.4 junk')],
    ['evidence_pdf_too_complex', file('bomb.pdf', () => objectStreamBomb(64 << 20))],
    ['evidence_pdf_no_pages', file('blank.pdf', async () => pdfBytes(0))],
    ['evidence_pdf_too_many_pages', file('six.pdf', async () => pdfBytes(6))],
  ];

  it('is covered here', () => {
    expect(cases.map(([code]) => code).sort()).toEqual([...evidenceErrorCodes].sort());
  });

  it.each(cases)('%s, with a message "evidence …: expected …, got …"', async (code, setUp) => {
    expect(await checkEvidence(tree.evidenceDir, await setUp(tree))).toMatchObject({
      ok: false,
      code,
      message: /^evidence .+: expected .+, got .+$/,
    });
  });
});

/**
 * The same for a regular file, by its access time: reading a file whose atime is far in the
 * past updates it (relatime), so an unchanged atime shows the file was not read. A control file
 * inside proves the mount records atimes; where it does not (noatime), the test cannot tell.
 */
describe('checkEvidence never reads a regular file outside the evidence directory', () => {
  const longAgo = new Date('2000-01-01T00:00:00Z');

  it('by any route', async (context) => {
    const control = await tree.write('evidence/control.pdf', await pdfBytes(1));
    const secret = await tree.write('outside/secret.pdf', await pdfBytes(1));
    await symlink(secret, join(tree.evidenceDir, 'scan.pdf'));
    await utimes(control, longAgo, longAgo);
    await utimes(secret, longAgo, longAgo);

    expect(await checkEvidence(tree.evidenceDir, 'control.pdf')).toMatchObject({ ok: true });
    if ((await stat(control)).atimeMs === longAgo.getTime()) context.skip('this mount does not record access times');

    for (const cell of ['scan.pdf', '../outside/secret.pdf', secret]) {
      expect(await checkEvidence(tree.evidenceDir, cell)).toMatchObject({ ok: false, code: 'evidence_path_outside' });
    }
    expect((await stat(secret)).atimeMs).toBe(longAgo.getTime());
  });
});
