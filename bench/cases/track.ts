import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { uniformSource } from '../../src/sandbox/faults/seeded-faults.js';
import { count, writeGenericExport } from '../support/export.js';
import { importJob, isThrottling, parseJson, type ImportedJob, type Throttling } from '../support/import-run.js';
import { mib, runNodeMeasured, type MeasuredRun } from '../support/process.js';
import { advanceCases, benchApiKey, benchAuthorization, setSandboxFaults, withSandbox } from '../support/sandbox.js';
import { casesInSandboxByStatus, eventsAfter, readDatabase } from '../support/sandbox-db.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * `bulk-disputes track` (the built CLI, as a process) following the cases of one real import, at
 * concurrency 32 against the sandbox answering every request after 50 ms, as the withdraw case
 * measures withdrawing:
 * - The job is made by the real import into a sandbox answering at once, every claim filed
 *   (`--file-mode chargeback`, claims of 1 to 3 cases as the resume case's export); its journal is
 *   track's one source, so N, the cases to follow, is the cases that journal names.
 * - Then the same sandbox (same address: the journal's service still matches) answers after 50 ms
 *   (`POST /_sandbox/faults`) and track runs a first time. Its figure is the requests its closing
 *   record counts, against the fewest the interface allows for reading N cases: a list page holds
 *   100, so ceil(N / 100) pages, and the one events page that gives the cursor.
 * - 1% of the cases, one drawn (seeded) from each hundredth of the job's lines, move to `won`
 *   through the sandbox's control prefix, each with its event; track runs again. Its figure is
 *   again its requests, against the event pages the events since the cursor fill plus one read per
 *   case moved; and its wall time against the first run's.
 * - Peak RSS of both runs as the memory case measures a child (GNU time and polled VmHWM).
 * - Each run's status file is checked before its figures count: every case read, the moved ones
 *   `won` and changed, no other changed. A run that read fewer cases would otherwise look cheaper.
 * - Before the first run, without latency, a few list pages timed one at a time: the sandbox's own
 *   time for a page at this size. The sandbox answers on one event loop and a first run walks
 *   about N / 100 pages: when pages × that time exceeds what the latency costs, it is the first
 *   run's wall time whatever track does, and the wall-time row's reader needs it beside the ratio.
 */

const latencyMs = 50;
const concurrency = 32;
/** The most cases a list page and events a page may hold (the interface's `limit` ceiling). */
const pageSize = 100;
const sizes = { full: 100_000, quick: 2_000 };
const changedShare = 0.01;
/** Which cases move: the same ones every run of the bench. */
const seed = 7;
const goals = { firstRequests: 1.2, incrementalRequests: 1.0, incrementalTime: 0.05, peakMiB: 200 };

const trackTimeoutMs = 30 * 60 * 1000;
/** List pages timed without latency before the first run; the median is reported. */
const pagesTimed = 7;

/** The fields of the closing record this case reads. */
interface ClosingRecord {
  run: string;
  requests: { casePages: number; caseReads: number; claimReads: number; eventPages: number; requests: number };
  throttling: Throttling;
}

interface TrackRun {
  measured: MeasuredRun;
  record: ClosingRecord;
  /** The "took …" line of the summary: the run's phases. */
  phases: string;
}

/** The `"msg":"track finished"` line of a run's JSON log, the last one on its stderr. */
function closingRecord(stderr: string): ClosingRecord | undefined {
  for (const line of stderr.split('\n').reverse()) {
    const entry = parseJson(line) as (Partial<ClosingRecord> & { msg?: unknown }) | undefined;
    if (entry?.msg !== 'track finished') continue;
    const requests = entry.requests as Partial<ClosingRecord['requests']> | undefined;
    const counts = ['casePages', 'caseReads', 'claimReads', 'eventPages', 'requests'] as const;
    if (
      typeof entry.run !== 'string' ||
      !counts.every((key) => typeof requests?.[key] === 'number') ||
      !isThrottling(entry.throttling)
    )
      return undefined;
    return entry as ClosingRecord;
  }
  return undefined;
}

async function runTrack(
  context: BenchContext,
  baseUrl: string,
  args: readonly string[],
  what: string,
): Promise<TrackRun> {
  const measured = await runNodeMeasured(
    [context.cliBin, '--log-level', 'info', '--log-format', 'json', 'track', ...args],
    {
      timeReport: join(context.workDir, 'track-time.txt'),
      env: { ...process.env, CLAIMS_BASE_URL: baseUrl, CLAIMS_API_KEY: benchApiKey },
      timeoutMs: trackTimeoutMs,
    },
  );
  const record = closingRecord(measured.stderr);
  // 0: nothing on the worklist, 1: something on it; both are a run that finished.
  if ((measured.code !== 0 && measured.code !== 1) || record === undefined) {
    throw new Error(
      `track, ${what}: expected exit 0 or 1 with its closing record, got ${measured.signal ?? `exit ${String(measured.code)}`}: ${measured.stderr.trim().split('\n').slice(-8).join(' | ')}`,
    );
  }
  const phases = measured.stderr.split('\n').find((line) => line.startsWith('took ')) ?? 'phases not printed';
  return { measured, record, phases };
}

/** The job's case ids in the order of its lines, as its journal names them. */
function casesOfJournal(journal: string): string[] {
  return readDatabase(journal, (database) =>
    (
      database.prepare('SELECT case_id FROM rows WHERE case_id IS NOT NULL ORDER BY idx').all() as { case_id: string }[]
    ).map((row) => row.case_id),
  );
}

/** One case drawn from each of `picks` equal stretches of `caseIds`: spread over the whole job, the same every run. */
function spreadSample(caseIds: readonly string[], picks: number): string[] {
  const random = uniformSource(seed);
  return Array.from({ length: picks }, (_, stretch) => {
    const from = Math.floor((stretch * caseIds.length) / picks);
    const to = Math.floor(((stretch + 1) * caseIds.length) / picks);
    return caseIds[from + Math.floor(random() * (to - from))] ?? '';
  });
}

interface StatusCheck {
  lines: number;
  notRead: number;
  byStatus: Map<string, number>;
  /** Case ids whose line says `changed` = yes. */
  changedYes: Set<string>;
}

/** What a run's status file says, line by line (streamed: 100,000 lines). */
async function readStatusFile(file: string): Promise<StatusCheck> {
  const check: StatusCheck = { lines: 0, notRead: 0, byStatus: new Map(), changedYes: new Set() };
  const lines = createReadStream(file).pipe(parse({ columns: true }));
  for await (const line of lines as AsyncIterable<Record<string, string>>) {
    check.lines++;
    const status = line.status ?? '';
    if (status === '') check.notRead++;
    else check.byStatus.set(status, (check.byStatus.get(status) ?? 0) + 1);
    if (line.changed === 'yes') check.changedYes.add(line.case_id ?? '');
  }
  return check;
}

/** "99,000 chargeback_filed, 1,000 won": by key, so that two tallies of the same cases read the same. */
/**
 * The sandbox's time for a list page of 100 cases, no latency: pages after cases spread over
 * the job, read one at a time (nothing else in flight), the median in ms.
 */
async function listPageMs(baseUrl: string, caseIds: readonly string[]): Promise<number> {
  const times: number[] = [];
  for (let page = 0; page < pagesTimed; page++) {
    const after = caseIds[Math.floor(((page + 0.5) * caseIds.length) / pagesTimed)] ?? '';
    const started = performance.now();
    const response = await fetch(
      new URL(`/v2/issuer/cases?limit=${pageSize}&starting_after=${encodeURIComponent(after)}`, baseUrl),
      { headers: { authorization: benchAuthorization } },
    );
    const body = await response.text();
    if (response.status !== 200)
      throw new Error(
        `track: expected 200 from the case list after ${after}, got ${response.status}: ${body.slice(0, 300)}`,
      );
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
}

const describeCounts = (counts: ReadonlyMap<string, number>): string =>
  [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${count(value)} ${key}`)
    .join(', ');

/** Every case of the job read, each with the status the sandbox holds: otherwise the requests would not mean "N cases read". */
function expectEveryCaseRead(check: StatusCheck, cases: number, held: ReadonlyMap<string, number>, what: string): void {
  if (check.lines !== cases || check.notRead !== 0 || describeCounts(check.byStatus) !== describeCounts(held)) {
    throw new Error(
      `track, ${what}: expected ${count(cases)} status lines, every case read as the sandbox holds them (${describeCounts(held)}), got ${count(check.lines)} lines, ${count(check.notRead)} not read, ${describeCounts(check.byStatus)}`,
    );
  }
}

/** The moved cases read again as `won`, and no other case changed. */
function expectMovedRead(check: StatusCheck, moved: readonly string[]): void {
  const missed = moved.filter((caseId) => !check.changedYes.has(caseId));
  const others = [...check.changedYes].filter((caseId) => !moved.includes(caseId));
  if (missed.length > 0 || others.length > 0 || check.byStatus.get('won') !== moved.length) {
    throw new Error(
      `track, incremental run: expected the ${count(moved.length)} moved cases changed and won, no other changed, got ${count(missed.length)} missed (${missed.slice(0, 3).join(', ')}), ${count(others.length)} others changed, ${count(check.byStatus.get('won') ?? 0)} won`,
    );
  }
}

const byKind = (requests: ClosingRecord['requests']): string =>
  `${count(requests.casePages)} case pages, ${count(requests.caseReads)} case reads, ${count(requests.claimReads)} claim reads, ${count(requests.eventPages)} event pages`;

/** Requests the client sent beside the ones track counts (retries), and the service's refusals: the figure's caveats. */
const wire = (run: TrackRun): string =>
  `client counted ${count(run.record.throttling.requests)} requests on the wire (429: ${run.record.throttling.answered429}, 503: ${run.record.throttling.answered503}), sending ${(run.record.throttling.sendingMs / 1000).toFixed(2)} s`;

interface Measured {
  cases: number;
  job: ImportedJob;
  first: TrackRun;
  firstStatus: StatusCheck;
  moved: string[];
  advanceSeconds: number;
  eventsSinceCursor: number;
  incremental: TrackRun;
  listPageMs: number;
}

async function measure(context: BenchContext, rows: number): Promise<Measured> {
  const input = join(context.workDir, 'night.csv');
  await writeGenericExport(input, rows);
  const dbFile = join(context.workDir, 'track.sandbox.db');
  const trackJournal = join(context.workDir, 'night.track.journal.sqlite');
  const statusFile = join(context.workDir, 'night.track.csv');
  return withSandbox({ cliBin: context.sandboxCliBin, dbFile, flags: ['--control'] }, async (sandbox) => {
    context.log(`track: importing ${count(rows)} rows (every claim filed) into the sandbox, no latency`);
    const job = await importJob(context, sandbox.url, { name: 'night', input, fileMode: 'chargeback', concurrency });
    if (job.run.outcomes.filed !== rows)
      throw new Error(
        `track: expected the import to file all ${count(rows)} rows, got ${JSON.stringify(job.run.outcomes)}`,
      );
    const caseIds = casesOfJournal(job.journal);
    const cases = caseIds.length;
    const pageMs = await listPageMs(sandbox.url, caseIds);
    context.log(
      `track: ${count(cases)} cases filed in ${job.run.wallSeconds.toFixed(1)} s; a list page of ${pageSize} takes the sandbox ${pageMs.toFixed(1)} ms; latency ${latencyMs} ms from now`,
    );
    await setSandboxFaults(sandbox.url, { latencyMs });

    const args = [
      job.journal,
      '--concurrency',
      String(concurrency),
      '--journal',
      trackJournal,
      '--results',
      statusFile,
    ];
    const first = await runTrack(context, sandbox.url, args, 'first run');
    context.log(
      `track: first run ${first.measured.seconds.toFixed(1)} s, ${count(first.record.requests.requests)} requests (${byKind(first.record.requests)}), peak ${mib(first.measured.peakRssBytes)}`,
    );
    if (first.record.run !== 'first') throw new Error(`track: expected a first run, got ${first.record.run}`);
    const firstStatus = await readStatusFile(statusFile);
    expectEveryCaseRead(firstStatus, cases, casesInSandboxByStatus(dbFile), 'first run');

    // Where the first run left the events: the incremental run pages from here.
    const cursor = readDatabase(
      trackJournal,
      (database) =>
        (database.prepare("SELECT value FROM meta WHERE key = 'events_cursor'").get() as { value: string } | undefined)
          ?.value,
    );
    if (cursor === undefined || cursor === '')
      throw new Error('track: expected an events cursor in the track journal after the first run, got none');
    const moved = spreadSample(caseIds, Math.round(cases * changedShare));
    const advanceStarted = performance.now();
    await advanceCases(sandbox.url, moved, 'won', concurrency);
    const advanceSeconds = (performance.now() - advanceStarted) / 1000;
    const eventsSinceCursor = eventsAfter(dbFile, cursor);
    context.log(
      `track: ${count(moved.length)} cases moved to won in ${advanceSeconds.toFixed(1)} s; ${count(eventsSinceCursor)} events since the cursor`,
    );

    const incremental = await runTrack(context, sandbox.url, args, 'incremental run');
    context.log(
      `track: incremental run ${incremental.measured.seconds.toFixed(1)} s, ${count(incremental.record.requests.requests)} requests (${byKind(incremental.record.requests)})`,
    );
    if (incremental.record.run !== 'incremental')
      throw new Error(`track: expected an incremental run, got ${incremental.record.run}`);
    const after = await readStatusFile(statusFile);
    expectEveryCaseRead(after, cases, casesInSandboxByStatus(dbFile), 'incremental run');
    expectMovedRead(after, moved);
    return {
      cases,
      job,
      first,
      firstStatus,
      moved,
      advanceSeconds,
      eventsSinceCursor,
      incremental,
      listPageMs: pageMs,
    };
  });
}

function rowsOf(measured: Measured): BenchRow[] {
  const { cases, job, first, incremental, moved, eventsSinceCursor } = measured;
  const size = `${count(cases)} cases`;
  const fewestFirst = Math.ceil(cases / pageSize) + 1;
  const eventPages = Math.ceil(eventsSinceCursor / pageSize);
  const fewestIncremental = eventPages + moved.length;
  const firstRatio = first.record.requests.requests / fewestFirst;
  const incrementalRatio = incremental.record.requests.requests / fewestIncremental;
  const timeRatio = incremental.measured.seconds / first.measured.seconds;
  const setting = `--concurrency ${concurrency}, sandbox latency ${latencyMs} ms`;
  const seeding = `the job: one real import into the same sandbox without latency, every claim filed (${JSON.stringify(job.run.outcomes)} rows in ${job.run.wallSeconds.toFixed(1)} s), its journal track's one source`;
  const limit = concurrency / (latencyMs / 1000);
  // The sandbox answers one request at a time on its event loop: its time for the pages adds up.
  const sandboxPagesSeconds = (first.record.requests.casePages * measured.listPageMs) / 1000;
  const listTime = `the sandbox's own time for a list page of ${pageSize} at this size: ${measured.listPageMs.toFixed(1)} ms (median of ${pagesTimed} read one at a time before the first run, no latency), × ${count(first.record.requests.casePages)} pages = ${sandboxPagesSeconds.toFixed(1)} s on its one event loop`;
  return [
    {
      benchmark: `Track, first run (${size}, ${setting}): requests`,
      figure: `${count(first.record.requests.requests)} requests (${byKind(first.record.requests)})`,
      baseline: `fewest the interface allows: ceil(${count(cases)} / ${pageSize}) list pages + 1 events page = ${count(fewestFirst)}`,
      ratio: firstRatio,
      goal: `<= ${goals.firstRequests} (requests ÷ fewest, smaller is better)`,
      met: firstRatio <= goals.firstRequests,
      note:
        `wall ${first.measured.seconds.toFixed(1)} s (the process), ${first.phases}; pace ${count(Math.round(cases / first.measured.seconds))} cases/s, ` +
        `${(first.record.requests.requests / first.measured.seconds).toFixed(1)} req/s (the latency's limit at ${concurrency} in flight: ${limit} req/s); ${wire(first)}; ` +
        `${listTime}; status file checked: ${count(measured.firstStatus.lines)} lines, every case read (${describeCounts(measured.firstStatus.byStatus)}); exit ${String(first.measured.code)}; ${seeding}`,
    },
    {
      benchmark: `Track, incremental run after ${count(moved.length)} of ${size} moved: requests`,
      figure: `${count(incremental.record.requests.requests)} requests (${byKind(incremental.record.requests)})`,
      baseline: `event pages for ${count(eventsSinceCursor)} events since the cursor: ceil(${count(eventsSinceCursor)} / ${pageSize}) = ${count(eventPages)}, + ${count(moved.length)} case reads = ${count(fewestIncremental)}`,
      ratio: incrementalRatio,
      goal: `<= ${goals.incrementalRequests} (requests ÷ needed, smaller is better)`,
      met: incrementalRatio <= goals.incrementalRequests,
      note:
        `${count(moved.length)} cases (one drawn from each ${count(cases / moved.length)}-case stretch of the job's lines, seed ${seed}) moved to won by POST /_sandbox/cases/{id}/advance, ` +
        `${measured.advanceSeconds.toFixed(1)} s at ${concurrency} at once; events since the cursor counted in the sandbox's database; ` +
        `status file checked: the moved cases changed and won, no other changed; ${wire(incremental)}; exit ${String(incremental.measured.code)}`,
    },
    {
      benchmark: `Track, incremental run after ${count(moved.length)} of ${size} moved: wall time`,
      figure: `incremental: ${incremental.measured.seconds.toFixed(2)} s`,
      baseline: `first run: ${first.measured.seconds.toFixed(2)} s`,
      ratio: timeRatio,
      goal: `< ${goals.incrementalTime} (incremental ÷ first, smaller is better)`,
      met: timeRatio < goals.incrementalTime,
      note:
        `the processes' wall time (start-up included); incremental ${incremental.phases}; first ${first.phases}; ` +
        `the first run's requests are ${count(first.record.requests.requests)} and the incremental run's ${count(incremental.record.requests.requests)}, ${concurrency} in flight at ${latencyMs} ms either way, ` +
        `so the ratio stands on the first run's time beyond its requests: ${listTime}`,
    },
    {
      benchmark: `Track, first run peak RSS (${size})`,
      figure: `first run: ${mib(first.measured.peakRssBytes)}`,
      baseline: `incremental run: ${mib(incremental.measured.peakRssBytes)}`,
      ratio: first.measured.peakRssBytes / incremental.measured.peakRssBytes,
      goal: `first run < ${goals.peakMiB} MiB (the ratio, first ÷ incremental, has no goal)`,
      met: first.measured.peakRssBytes < goals.peakMiB * 1024 * 1024,
      note: `as the memory case measures a child, the larger of GNU time %M and polled /proc VmHWM: first ${first.measured.peakRssSource}; incremental ${incremental.measured.peakRssSource}; both runs write the ${count(cases)}-line status file`,
    },
  ];
}

export const benchCase: BenchCase = {
  name: 'track',
  async run(context) {
    return rowsOf(await measure(context, context.quick ? sizes.quick : sizes.full));
  },
};
