import pLimit from 'p-limit';
import Tinypool from 'tinypool';
import { pdfParseTimeLimitMs, pdfWorkerHeapMb } from './pdf-complexity-limits.js';
import { PdfTooComplexError, PdfUnreadableError } from './pdf-errors.js';
import type { PageCountAnswer } from './pdf-page-worker.js';

/**
 * pdf-lib's page counts, off the main thread: parsing a PDF is synchronous work of up to seconds,
 * during which the sandbox could answer no other request and the import could send nothing. One
 * worker thread, started on the first PDF that needs it (most runs never do: the quick reading of
 * pdf-cross-references.ts counts classic files on the main thread), reused for the next ones, and
 * stopped after a while idle; never what keeps the process alive (Tinypool unrefs idle workers).
 *
 * One file at a time, each within `pdfParseTimeLimitMs` from when the worker takes it (a queue of
 * files must not eat the time of the last one), and within a heap of `pdfWorkerHeapMb`: a worker
 * stopped for either is replaced, and the file refused as too complex.
 */

/** An idle worker is kept this long for the next file, then stopped (it holds some 30 MB). */
const idleTimeoutMs = 30_000;
/**
 * pdf-lib interns every name and reference it has seen, for the life of the thread. A worker left
 * with more heap than this after a file is replaced, so that one hostile file's leftovers cannot
 * crowd out the next file.
 */
const recycleAboveHeapBytes = 64 * 1024 * 1024;

let pool: Tinypool | undefined;
const oneAtATime = pLimit(1);

/** The page count, or PdfUnreadableError / PdfTooComplexError. */
export async function countPagesInWorker(bytes: Uint8Array): Promise<number> {
  // A copy of its own, transferred: the caller's buffer may be a view into a larger one.
  const copy = new Uint8Array(bytes);
  const answer = await oneAtATime(async () => run(copy));
  if (answer.kind === 'pages') return answer.count;
  if (answer.kind === 'unreadable') throw new PdfUnreadableError(answer.reason);
  throw new PdfTooComplexError(answer.expected, answer.got);
}

async function run(bytes: Uint8Array): Promise<PageCountAnswer> {
  pool ??= new Tinypool({
    filename: workerFile().href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: idleTimeoutMs,
    maxMemoryLimitBeforeRecycle: recycleAboveHeapBytes,
    resourceLimits: { maxOldGenerationSizeMb: pdfWorkerHeapMb, maxYoungGenerationSizeMb: 8 },
  });
  try {
    return (await pool.run(bytes, {
      transferList: [bytes.buffer as ArrayBuffer],
      signal: AbortSignal.timeout(pdfParseTimeLimitMs),
    })) as PageCountAnswer;
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError')
      throw new PdfTooComplexError(
        `a PDF read within ${pdfParseTimeLimitMs / 1000} s`,
        `one still being read after ${pdfParseTimeLimitMs / 1000} s`,
        { cause: error },
      );
    if (error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new PdfTooComplexError(`a PDF read within ${pdfWorkerHeapMb} MB of memory`, 'one that needs more', {
        cause: error,
      });
    throw error;
  }
}

/**
 * The worker's compiled file beside this one. Run from the TypeScript sources (vitest), this module
 * is src/files/pdf-page-pool.ts and a worker thread cannot load TypeScript: it uses the build in
 * dist/ instead (`npm test` builds before it tests), as src/import/stage does.
 */
function workerFile(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./pdf-page-worker.js', here);
  return new URL(here.replace(/\/src\/(?!.*\/src\/)/, '/dist/').replace(/pdf-page-pool\.ts$/, 'pdf-page-worker.js'));
}
