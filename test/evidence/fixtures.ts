import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PDFDocument } from 'pdf-lib';

/**
 * A real directory tree per test: `root/evidence/` is the evidence directory, `root/outside/`
 * is what an escaping cell must never reach.
 */
export interface EvidenceTree {
  root: string;
  evidenceDir: string;
  outsideDir: string;
  /** Writes a file under the tree (path relative to `root`), creating folders; returns its path. */
  write: (relativePath: string, content: string | Uint8Array) => Promise<string>;
  /** A named pipe: opening it for reading blocks until a writer comes, so a test that ends proves it was not opened. */
  fifo: (relativePath: string) => string;
  remove: () => Promise<void>;
}

export async function makeEvidenceTree(): Promise<EvidenceTree> {
  const root = await mkdtemp(join(tmpdir(), 'bulk-disputes-evidence-'));
  const evidenceDir = join(root, 'evidence');
  const outsideDir = join(root, 'outside');
  await mkdir(evidenceDir);
  await mkdir(outsideDir);
  const fifos: string[] = [];
  return {
    root,
    evidenceDir,
    outsideDir,
    write: async (relativePath, content) => {
      const path = join(root, relativePath);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      return path;
    },
    fifo: (relativePath) => {
      const path = join(root, relativePath);
      execFileSync('mkfifo', [path]);
      fifos.push(path);
      return path;
    },
    remove: async () => {
      fifos.forEach(releaseBlockedReader);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Should a test fail by opening a pipe, its reader would wait forever and hold a libuv thread:
 * opening the write end (without blocking) and closing it hands the reader an end of file.
 * ENXIO means nobody is reading, which is what a passing test leaves behind.
 */
function releaseBlockedReader(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: no reader to release.
  }
}

/** JPEG magic followed by filler: the checks look at the signature, not at the image. */
export function jpegMagicBytes(sizeBytes: number): Buffer {
  const bytes = Buffer.alloc(sizeBytes, 0x20);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}

export function pngMagicBytes(): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('IHDR rest of a png'),
  ]);
}

export async function pdfBytes(pageCount: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let index = 0; index < pageCount; index++) document.addPage();
  // pdf-lib adds a page to an empty document unless told not to.
  return document.save({ addDefaultPage: false });
}
