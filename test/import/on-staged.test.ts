import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { expect, it, onTestFinished } from 'vitest';
import { runImport, type ImportRequest } from '../../src/import/run-import.js';
import { oneToThreeRows, plannedRows, writeDisputesCsv } from './generate.js';

/**
 * runImport's `onStaged`: told once per run when the journal holds every row, staged now or by an
 * earlier run, before the checks and the results; the CLI lets V8's young generation grow from
 * there (src/cli/heap-tuning.ts).
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));

it('tells onStaged once, after staging, on the first run and on a resumed one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-on-staged-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const input = join(dir, 'in.csv');
  await writeDisputesCsv(input, plannedRows({ rows: 30, sizeOf: oneToThreeRows, block: 5 }));
  const events: string[] = [];
  const options = (resultsFile: string): ImportRequest => ({
    input,
    mappingFile: mapping,
    resultsFile,
    journalFile: join(dir, 'job.sqlite'),
    evidenceDir: dir,
    concurrency: 4,
    dryRun: true,
    restart: false,
    service: undefined,
    logger: pino({ level: 'silent' }),
    onStaged: () => events.push('staged'),
    progress: undefined,
  });
  const first = await runImport(options(join(dir, 'first.csv')));
  expect(events).toEqual(['staged']);
  expect(first.phases?.map((time) => time.phase)).toContain('staging');
  const again = await runImport(options(join(dir, 'again.csv')));
  expect(events).toEqual(['staged', 'staged']);
  expect(again.phases?.map((time) => time.phase)).toContain('resuming');
  // The same results either way: the hook changes nothing the job does.
  expect(await readFile(join(dir, 'again.csv'), 'utf8')).toBe(await readFile(join(dir, 'first.csv'), 'utf8'));
  expect(first.summary.rows).toBe(30);
});
