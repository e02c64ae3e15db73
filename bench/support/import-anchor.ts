import { join } from 'node:path';
import type { BenchContext } from '../types.js';
import { importJob, type JobOptions } from './import-run.js';
import { replay, startRecorder, type ReplayResult, type RequestSequence } from './replay-anchor.js';
import { withSandbox } from './sandbox.js';

/**
 * The anchor of an import (support/replay-anchor.ts) in two steps: record the requests a
 * fault-free import sends, then replay them into a fresh sandbox with the faults. The refusals
 * and weather cases compare the import's sending phase with the replay's.
 */

/** The requests a fault-free import sends for `input`, recorded on the wire, a sequence per claim. */
export async function recordImport(
  context: BenchContext,
  input: string,
  fileMode: JobOptions['fileMode'],
  concurrency: number,
): Promise<RequestSequence[]> {
  const name = `record-${fileMode}`;
  const file = (suffix: string) => join(context.workDir, `${name}.${suffix}`);
  return withSandbox({ cliBin: context.sandboxCliBin, dbFile: file('sandbox.db') }, async (sandbox) => {
    const recorder = await startRecorder(sandbox.url);
    try {
      await importJob(context, recorder.url, { name, input, fileMode, concurrency });
      return recorder.sequences();
    } finally {
      await recorder.close();
    }
  });
}

/** Replays `sequences` from `workers` workers into a fresh sandbox started with `flags`. */
export async function replayInSandbox(
  context: BenchContext,
  name: string,
  flags: readonly string[],
  sequences: readonly RequestSequence[],
  workers: number,
): Promise<ReplayResult> {
  return withSandbox(
    { cliBin: context.sandboxCliBin, dbFile: join(context.workDir, `${name}.sandbox.db`), flags },
    async (sandbox) => replay(sandbox.url, sequences, workers),
  );
}
