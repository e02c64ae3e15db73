import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { oneToThreeRows, plannedRows, writeDisputesCsv } from '../../test/import/generate.js';
import type { BenchContext } from '../types.js';
import { importJob } from './import-run.js';
import { benchApiKey, benchAuthorization, withSandbox } from './sandbox.js';
import { readDatabase } from './sandbox-db.js';

/**
 * One real night for the prune case, made by the built CLI against a sandbox process that plays
 * the card networks (`--outcomes --control`): an import of `claims` claims, every one filed, then
 * `track` of its journal, the sandbox clock moved on until every filed case is decided, and
 * `track` again. The night's folder then holds what such a night leaves (docs/data.md, "Every
 * file, by job"): the import journal and results, the track journal, status file and worklist.
 * The export is generated outside the folder: the bank's file is not a job file.
 */

/** Every path of the sandbox's outcomes ends within 120 days (docs/sandbox.md, "Outcomes"). */
const decidedAfterDays = 150;
const concurrency = 16;

export interface Night {
  /** The folder: the commands' cwd, holding every file they wrote and nothing else. */
  readonly dir: string;
  readonly claims: number;
  readonly rows: number;
  /** Cases the import filed, and how many of them track saw decided. */
  readonly cases: number;
  readonly decided: number;
  /** The latest `decided_at` of the track journal: ahead of the real time by about the days the clock moved. */
  readonly lastDecidedAt: Date;
}

const run = promisify(execFile);

/** `bulk-disputes track` in the night's folder; exit 1 (something on the worklist) is a finished run too. */
async function track(cliBin: string, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(process.execPath, [cliBin, '--log-level', 'warn', 'track', 'night.journal.sqlite'], { cwd: dir, env });
  } catch (error) {
    const failed = error as { code?: unknown; stderr?: unknown };
    if (failed.code === 1) return;
    throw new Error(`prune night: expected track to exit 0 or 1, got ${String(failed.code)}: ${String(failed.stderr)}`);
  }
}

export async function makeNight(context: BenchContext, claims: number): Promise<Night> {
  const dir = join(context.workDir, 'night');
  await mkdir(dir, { recursive: true });
  const input = join(context.workDir, 'night-export.csv');
  // One or two rows a claim: a night of `claims` claims is about 1.5 times as many rows.
  const written = await writeDisputesCsv(
    input,
    plannedRows({ claims, sizeOf: (claim) => Math.min(2, oneToThreeRows(claim)), block: 50 }),
  );
  return withSandbox(
    {
      cliBin: context.sandboxCliBin,
      dbFile: join(context.workDir, 'night.sandbox.db'),
      flags: ['--control', '--outcomes'],
    },
    async (sandbox) => {
      const job = await importJob({ ...context, workDir: dir }, sandbox.url, {
        name: 'night',
        input,
        fileMode: 'chargeback',
        concurrency,
      });
      if (job.run.outcomes.filed !== written.rows)
        throw new Error(
          `prune night: expected the import to file all ${written.rows} rows, got ${JSON.stringify(job.run.outcomes)}`,
        );
      const env = { ...process.env, CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: benchApiKey };
      await track(context.cliBin, dir, env);
      const response = await fetch(new URL('/_sandbox/clock', sandbox.url), {
        method: 'POST',
        headers: { authorization: benchAuthorization, 'content-type': 'application/json' },
        body: JSON.stringify({ advance_days: decidedAfterDays }),
      });
      if (response.status !== 200)
        throw new Error(`prune night: expected 200 from POST /_sandbox/clock, got ${response.status}`);
      await response.body?.cancel();
      await track(context.cliBin, dir, env);
      const decided = readDatabase(join(dir, 'night.track.journal.sqlite'), (database) =>
        database
          .prepare('SELECT count(*) AS cases, count(decided_at) AS decided, max(decided_at) AS last FROM track_cases')
          .get(),
      ) as { cases: number; decided: number; last: string | null };
      if (decided.cases !== written.rows || decided.decided !== decided.cases || decided.last === null)
        throw new Error(
          `prune night: expected track to see all ${written.rows} cases decided, got ${decided.decided} decided of ${decided.cases}`,
        );
      return {
        dir,
        claims,
        rows: written.rows,
        cases: decided.cases,
        decided: decided.decided,
        lastDecidedAt: new Date(decided.last),
      };
    },
  );
}
