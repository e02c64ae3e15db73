import { mkdir, realpath, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EvidenceDirectoryError, resolveEvidencePath } from '../../src/evidence/index.js';
import { parseEvidenceCell, realEvidenceDirOnce } from '../../src/evidence/resolve-path.js';
import { makeEvidenceTree, type EvidenceTree } from './fixtures.js';

let tree: EvidenceTree;
beforeEach(async () => {
  tree = await makeEvidenceTree();
});
afterEach(async () => {
  await tree.remove();
});

/** A directory that does not exist: resolving against it would throw, so a refusal proves no file-system call. */
const missingDir = '/nonexistent/bulk-disputes/evidence';

describe('resolveEvidencePath accepts', () => {
  it('a file in the directory, as its real absolute path', async () => {
    const path = await tree.write('evidence/scan.pdf', 'x');
    expect(await resolveEvidencePath(tree.evidenceDir, 'scan.pdf')).toEqual({ ok: true, path: await realpath(path) });
  });

  it.each(['sub/scan.pdf', 'sub\\scan.pdf', './sub//scan.pdf', 'other/../sub/scan.pdf'])(
    '%s, normalised',
    async (cell) => {
      const path = await tree.write('evidence/sub/scan.pdf', 'x');
      expect(await resolveEvidencePath(tree.evidenceDir, cell)).toEqual({ ok: true, path: await realpath(path) });
    },
  );

  it('a symbolic link to another file inside, as the target', async () => {
    const target = await tree.write('evidence/sub/real.pdf', 'x');
    await symlink(join('sub', 'real.pdf'), join(tree.evidenceDir, 'link.pdf'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'link.pdf')).toEqual({ ok: true, path: await realpath(target) });
  });

  it('an evidence directory given through a symbolic link', async () => {
    const path = await tree.write('evidence/scan.pdf', 'x');
    const linkedDir = join(tree.root, 'linked-evidence');
    await symlink(tree.evidenceDir, linkedDir);
    expect(await resolveEvidencePath(linkedDir, 'scan.pdf')).toEqual({ ok: true, path: await realpath(path) });
  });
});

describe('resolveEvidencePath refuses, without touching the file system,', () => {
  it('a path that climbs out, with the message the results CSV shows', async () => {
    expect(await resolveEvidencePath(missingDir, '../../etc/passwd')).toEqual({
      ok: false,
      code: 'evidence_path_outside',
      message: `evidence ../../etc/passwd: expected a path inside the evidence directory ${missingDir}, got one that leaves it`,
    });
  });

  it.each(['../../etc/passwd', 'a/../../b', '..\\..\\etc\\passwd', '..', 'sub/../..', '../evidence/scan.pdf'])(
    '%s: leaves it',
    async (cell) => {
      expect(await resolveEvidencePath(missingDir, cell)).toMatchObject({
        ok: false,
        code: 'evidence_path_outside',
        message: /got one that leaves it$/,
      });
    },
  );

  it.each(['/etc/passwd', 'C:\\x', 'c:x', 'C:/x', '\\\\server\\share\\x', '\\x', '//server/x'])(
    '%s: absolute',
    async (cell) => {
      expect(await resolveEvidencePath(missingDir, cell)).toMatchObject({
        ok: false,
        code: 'evidence_path_outside',
        message: /got an absolute path$/,
      });
    },
  );

  it.each(['', '   '])('%j: empty', async (cell) => {
    expect(await resolveEvidencePath(missingDir, cell)).toMatchObject({ ok: false, code: 'evidence_path_empty' });
  });

  it('a NUL character, quoting the cell so the message stays printable', async () => {
    expect(await resolveEvidencePath(missingDir, 'scan.pdf\0.png')).toEqual({
      ok: false,
      code: 'evidence_path_invalid',
      message: 'evidence "scan.pdf\\u0000.png": expected a path the file system can hold, got one with a NUL character',
    });
  });
});

describe('resolveEvidencePath refuses, after resolving links,', () => {
  it('a symbolic link inside pointing outside', async () => {
    await tree.write('outside/secret.pdf', 'x');
    await symlink(join(tree.outsideDir, 'secret.pdf'), join(tree.evidenceDir, 'innocent.pdf'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'innocent.pdf')).toEqual({
      ok: false,
      code: 'evidence_path_outside',
      message: `evidence innocent.pdf: expected a path inside the evidence directory ${tree.evidenceDir}, got a symbolic link that leads outside it`,
    });
  });

  it('a file under a symbolic link to a directory outside', async () => {
    await tree.write('outside/secret.pdf', 'x');
    await symlink(tree.outsideDir, join(tree.evidenceDir, 'shared'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'shared/secret.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_path_outside',
    });
  });

  it('a link to a sibling directory whose name starts like the evidence directory', async () => {
    await tree.write('evidence-old/scan.pdf', 'x');
    await symlink(join(tree.root, 'evidence-old', 'scan.pdf'), join(tree.evidenceDir, 'scan.pdf'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_path_outside',
    });
  });

  it('a link to a named pipe outside, without opening it (opening would block and the test would not end)', async () => {
    tree.fifo('outside/pipe');
    await symlink(join(tree.outsideDir, 'pipe'), join(tree.evidenceDir, 'scan.pdf'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_path_outside',
    });
  }, 5_000);
});

describe('resolveEvidencePath reports', () => {
  it.each(['missing.pdf', 'sub/missing.pdf', 'scan.pdf/page1.png'])('%s: not found', async (cell) => {
    await tree.write('evidence/scan.pdf', 'x');
    expect(await resolveEvidencePath(tree.evidenceDir, cell)).toMatchObject({
      ok: false,
      code: 'evidence_not_found',
      message: `evidence ${cell}: expected an existing file in the evidence directory, got no such file in ${tree.evidenceDir}`,
    });
  });

  it('the folder searched and how it was chosen: --evidence-dir, or the default (the export folder)', async () => {
    expect(await resolveEvidencePath(tree.evidenceDir, 'ricevuta-001.pdf', 'flag')).toMatchObject({
      message:
        'evidence ricevuta-001.pdf: expected an existing file in the evidence directory, ' +
        `got no such file in ${tree.evidenceDir} (set by --evidence-dir)`,
    });
    expect(await resolveEvidencePath(tree.evidenceDir, '../ricevuta-001.pdf', 'default')).toMatchObject({
      message:
        `evidence ../ricevuta-001.pdf: expected a path inside the evidence directory ${tree.evidenceDir} ` +
        "(the default, the export's folder; set another with --evidence-dir), got one that leaves it",
    });
  });

  it('a dangling symbolic link: not found', async () => {
    await symlink(join(tree.evidenceDir, 'gone.pdf'), join(tree.evidenceDir, 'scan.pdf'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_not_found',
    });
  });

  it.each(['sub', '.', 'sub/..'])('%s: a directory is not a file', async (cell) => {
    await mkdir(join(tree.evidenceDir, 'sub'));
    expect(await resolveEvidencePath(tree.evidenceDir, cell)).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: /expected a regular file, got a directory$/,
    });
  });

  it('a named pipe inside: not a file, and not opened', async () => {
    tree.fifo('evidence/scan.pdf');
    expect(await resolveEvidencePath(tree.evidenceDir, 'scan.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_not_a_file',
      message: /got a named pipe$/,
    });
  }, 5_000);

  it('a loop of symbolic links: unreadable', async () => {
    await symlink('b.pdf', join(tree.evidenceDir, 'a.pdf'));
    await symlink('a.pdf', join(tree.evidenceDir, 'b.pdf'));
    expect(await resolveEvidencePath(tree.evidenceDir, 'a.pdf')).toMatchObject({
      ok: false,
      code: 'evidence_unreadable',
      message: /got a loop of symbolic links$/,
    });
  });
});

describe('resolveEvidencePath throws for the whole run', () => {
  it('when the evidence directory does not exist', async () => {
    await expect(resolveEvidencePath(join(tree.root, 'nope'), 'scan.pdf')).rejects.toThrow(EvidenceDirectoryError);
  });

  it('when the evidence directory is a file', async () => {
    const file = await tree.write('file.txt', 'x');
    await expect(resolveEvidencePath(file, 'scan.pdf')).rejects.toThrow(
      `--evidence-dir ${file}: expected a directory, got a regular file`,
    );
  });
});

describe('parseEvidenceCell', () => {
  it.each([
    ['a/b/c.pdf', ['a', 'b', 'c.pdf']],
    ['a\\b\\c.pdf', ['a', 'b', 'c.pdf']],
    ['a/./b/../c.pdf', ['a', 'c.pdf']],
    ['a/..', []],
    ['scan 1 (final).pdf', ['scan 1 (final).pdf']],
  ])('%s → %j', (cell, segments) => {
    expect(parseEvidenceCell(cell)).toEqual({ ok: true, segments });
  });
});

describe("a job's evidence folder, its real path looked up once", () => {
  it('keeps files confined to the folder as first resolved, even when a link later stands at its name', async () => {
    const inside = await tree.write('evidence/scan.pdf', 'x');
    await tree.write('elsewhere/scan.pdf', 'y');
    const given = join(tree.root, 'given');
    await symlink(tree.evidenceDir, given);
    const folder = { evidenceDir: given };
    const realDirOf = async (dir: string) => realEvidenceDirOnce(folder, dir);
    expect(await resolveEvidencePath(given, 'scan.pdf', undefined, realDirOf)).toEqual({
      ok: true,
      path: await realpath(inside),
    });
    // The name now leads elsewhere: the job's files are still looked for where the folder was.
    await unlink(given);
    await symlink(join(tree.root, 'elsewhere'), given);
    expect(await resolveEvidencePath(given, 'scan.pdf', undefined, realDirOf)).toEqual({
      ok: true,
      path: await realpath(inside),
    });
    // Looked up afresh (no folder kept), the name's new target is what counts.
    expect(await resolveEvidencePath(given, 'scan.pdf')).toEqual({
      ok: true,
      path: await realpath(join(tree.root, 'elsewhere/scan.pdf')),
    });
  });

  it('keeps no failure: a folder that appears after a first refusal is found', async () => {
    const later = join(tree.root, 'later');
    const folder = { evidenceDir: later };
    const realDirOf = async (dir: string) => realEvidenceDirOnce(folder, dir);
    await expect(resolveEvidencePath(later, 'scan.pdf', undefined, realDirOf)).rejects.toThrow(EvidenceDirectoryError);
    const path = await tree.write('later/scan.pdf', 'x');
    expect(await resolveEvidencePath(later, 'scan.pdf', undefined, realDirOf)).toEqual({
      ok: true,
      path: await realpath(path),
    });
  });
});
