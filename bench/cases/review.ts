import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { openReviewJob } from '../../src/review/job.js';
import { checkRowWithEvidence } from '../../src/review/check-row.js';
import { startReviewServer } from '../../src/review/server.js';
import { ReviewStore } from '../../src/review/store.js';
import { openJournalDatabase } from '../../src/job-files/import/schema.js';
import { readResultRecords } from '../../src/job-files/import/result-records.js';
import { count, writeGenericExport } from '../support/export.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, runNodeMeasured } from '../support/process.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * `review` of a 100,000-row job with 10,000 rows that failed (the amount mistyped in every row
 * of claims spread through the file). Measured in this process as the command runs it: the time
 * from opening the journal to the first page of rows (the journal read from a private copy, the
 * rows to fix kept, the server up, GET /api/rows answered), against a plain read of every result
 * record of the same journal; and one edited row re-checked over HTTP (PUT: checked with the
 * import's code, kept in the review's store), against the same check called in-process.
 */

const sizes = { full: { rows: 100_000, checks: 50 }, quick: { rows: 2_000, checks: 5 } };

/**
 * The generic export with the disputed amount made unreadable in every row of claims chosen
 * evenly through the file (every fifth claim, while they fit) until exactly a tenth of the rows
 * fail: a claim's rows fail together, as the import holds back a claim with a bad row.
 */
async function exportWithFailures(context: BenchContext, rows: number): Promise<string> {
  const clean = join(context.workDir, 'review-clean.csv');
  await writeGenericExport(clean, rows);
  // The generator's rows hold no quoted commas or line breaks: one record per line; the claim key is the first cell.
  const lines = () => createInterface({ input: createReadStream(clean), crlfDelay: Number.POSITIVE_INFINITY });
  const sizes = new Map<string, number>();
  let header = true;
  for await (const line of lines()) {
    if (!header) sizes.set(line.slice(0, line.indexOf(',')), (sizes.get(line.slice(0, line.indexOf(','))) ?? 0) + 1);
    header = false;
  }
  const wanted = Math.round(rows / 10);
  const failing = new Set<string>();
  let chosen = 0;
  for (const round of [5, 1]) {
    let position = 0;
    for (const [key, size] of sizes) {
      if (position++ % round === 0 && !failing.has(key) && chosen + size <= wanted) {
        failing.add(key);
        chosen += size;
      }
    }
  }
  const file = join(context.workDir, 'review-export.csv');
  const out = createWriteStream(file);
  header = true;
  for await (const line of lines()) {
    const cells = line.split(',');
    if (!header && failing.has(cells[0] ?? '')) cells[16] = `${cells[16] ?? ''}x`;
    header = false;
    if (!out.write(`${cells.join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

const milliseconds = (value: number) => `${value.toFixed(1)} ms`;
const median = (values: number[]) =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;

export const benchCase: BenchCase = {
  name: 'review',
  async run(context): Promise<BenchRow[]> {
    const { rows, checks } = context.quick ? sizes.quick : sizes.full;
    const input = await exportWithFailures(context, rows);
    const journal = join(context.workDir, 'review.journal.sqlite');
    const staged = await runNodeMeasured(
      [
        context.cliBin,
        'import',
        input,
        '--mapping',
        genericMappingFile,
        '--dry-run',
        '--journal',
        journal,
        '--results',
        join(context.workDir, 'review.results.csv'),
        '--log-level',
        'warn',
      ],
      { timeReport: join(context.workDir, 'review-time.txt'), timeoutMs: 1_800_000 },
    );
    if (staged.code !== 1) expectSuccess(staged, 'the dry run that makes the job to review');

    const readStarted = performance.now();
    const database = openJournalDatabase(journal);
    let records = 0;
    for (const _record of readResultRecords(database)) records++;
    database.close();
    const plainReadMs = performance.now() - readStarted;

    const started = performance.now();
    const job = await openReviewJob([journal], genericMappingFile);
    if (job.kind !== 'import') throw new Error('review bench: expected an import job');
    const store = new ReviewStore(join(context.workDir, 'review.review.sqlite'));
    const server = await startReviewServer({ job, store, evidenceDir: context.workDir });
    // As a script calls the API (docs/review.md): the token as a bearer, the session cookie being the page's.
    const headers = { authorization: `Bearer ${server.token}` };
    const first = await request(`${server.origin}/api/rows`, { headers });
    const page = (await first.body.json()) as {
      total: number;
      rows: { line: number; cells: Record<string, string> }[];
    };
    const firstPageMs = performance.now() - started;
    try {
      const target = page.rows[0];
      if (target === undefined) throw new Error('review bench: expected rows to fix, got none');
      const fixed = { ...target.cells, disputed_amount: '10.00' };
      const overHttp: number[] = [];
      const inProcess: number[] = [];
      for (let index = 0; index < checks; index++) {
        const sent = performance.now();
        const response = await request(`${server.origin}/api/rows/${target.line}`, {
          method: 'PUT',
          headers: { ...headers, origin: server.origin, 'content-type': 'application/json' },
          body: JSON.stringify({ cells: fixed }),
        });
        await response.body.json();
        overHttp.push(performance.now() - sent);
        const called = performance.now();
        await checkRowWithEvidence(fixed, job.mapping, job.columns, context.workDir);
        inProcess.push(performance.now() - called);
      }
      return [
        {
          benchmark: `Review: first page of rows (${count(rows)}-row job, ${count(page.total)} to fix)`,
          figure: milliseconds(firstPageMs),
          baseline: `every result record read: ${milliseconds(plainReadMs)} (${count(records)} records)`,
          ratio: firstPageMs / plainReadMs,
          note: 'open the journal (a private copy), keep the rows to fix, start the server, GET /api/rows; smaller is better',
        },
        {
          benchmark: 'Review: one edited row re-checked (PUT, median)',
          figure: milliseconds(median(overHttp)),
          baseline: `the same check in-process: ${milliseconds(median(inProcess))}`,
          ratio: median(overHttp) / median(inProcess),
          note: `${checks} edits; the import's checks, the claim's other rows, the review store's write; smaller is better`,
        },
      ];
    } finally {
      await server.close();
      await job.close();
      store.close();
    }
  },
};
