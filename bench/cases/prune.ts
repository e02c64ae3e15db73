import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from '../support/export.js';
import { expectSuccess, mib, runNodeMeasured, type MeasuredRun } from '../support/process.js';
import { makeNight, type Night } from '../support/prune-night.js';
import { freshCopy, makeYear, type Year } from '../support/prune-nights.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * `bulk-disputes prune` (the built CLI, as a process) over a year of nights, as the nightly job
 * runs it after track, with the default policy (90d personal data, 7y records):
 * - One real night (bench/support/prune-night.ts): 1,000 claims imported and filed into a sandbox
 *   playing the card networks, tracked until every case is decided. Copied into a dated folder per
 *   night, each made its own and aged by its date (bench/support/prune-nights.ts), so that the
 *   nights whose last case closed 90 days ago or more, about three quarters, are due to be thinned.
 * - On a fresh copy each time (the copying is not timed): `prune --dry-run`; `prune`, the first run,
 *   which thins every job due; `prune` again over what it left, every job then kept (what a
 *   nightly run costs once the year is pruned); and the first run over 30 of the nights, for how
 *   its peak memory grows with the nights.
 * - Each run's summary line is checked against the nights' ages before its time counts: a run
 *   that thinned fewer jobs would otherwise look faster.
 * - The baseline, in the same run: a child process reading every byte of the folder once as that
 *   run finds it (bench/support/read-every-byte-main.ts). Every file is in the page cache for both,
 *   having just been copied.
 * - Peak RSS as the memory case measures a child (GNU time and polled VmHWM).
 */

const sizes = {
  full: { nights: 365, fewNights: 30, claims: 1_000 },
  quick: { nights: 20, fewNights: 5, claims: 100 },
};
/** The default policy's personal-data period, in days: the nights this old or older are due. */
const keepPersonalDataDays = 90;
const goals = { seconds: 60, peakRatio: 1.15 };
const pruneTimeoutMs = 30 * 60 * 1000;
/** Each night holds two jobs: its import and its track journal. */
const jobsPerNight = 2;

const readEveryByteScript = fileURLToPath(new URL('../support/read-every-byte-main.js', import.meta.url));

interface Tally {
  thin: number;
  remove: number;
  finish: number;
  keep: number;
  leave: number;
}

interface PruneRun {
  measured: MeasuredRun;
  tally: Tally;
  summary: string;
}

interface Folder {
  files: number;
  bytes: number;
}

/** The summary line prune writes last on stderr: `prune (90d personal data, 7y records): 730 jobs: 552 thinned, …`. */
function tallyOf(stderr: string): { tally: Tally; summary: string } | undefined {
  const summary = stderr
    .split('\n')
    .reverse()
    .find((line) => line.startsWith('prune ('));
  if (summary === undefined) return undefined;
  const tally: Tally = { thin: 0, remove: 0, finish: 0, keep: 0, leave: 0 };
  const words: Record<string, keyof Tally> = {
    thinned: 'thin',
    'to thin': 'thin',
    removed: 'remove',
    'to remove': 'remove',
    finished: 'finish',
    kept: 'keep',
    'left alone': 'leave',
  };
  for (const [, figure, word] of summary.matchAll(
    /(\d+) (to thin|thinned|to remove|removed|finished|kept|left alone)/g,
  ))
    tally[words[word ?? ''] ?? 'leave'] += Number(figure);
  return { tally, summary };
}

const describeTally = (tally: Tally): string =>
  `${count(tally.thin)} thin, ${count(tally.remove)} remove, ${count(tally.finish)} finish, ${count(tally.keep)} keep, ${count(tally.leave)} leave`;

/** The policy's defaults, whatever the machine's environment sets. */
function defaultPolicyEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.BULK_DISPUTES_KEEP_PERSONAL_DATA;
  delete env.BULK_DISPUTES_KEEP_RECORDS;
  return env;
}

async function runPrune(
  context: BenchContext,
  paths: readonly string[],
  flags: readonly string[],
  expected: Tally,
  what: string,
): Promise<PruneRun> {
  const measured = await runNodeMeasured([context.cliBin, '--log-level', 'warn', 'prune', ...paths, ...flags], {
    timeReport: join(context.workDir, 'prune-time.txt'),
    env: defaultPolicyEnv(),
    timeoutMs: pruneTimeoutMs,
  });
  expectSuccess(measured, `prune, ${what}`);
  const read = tallyOf(measured.stderr);
  if (read === undefined || describeTally(read.tally) !== describeTally(expected))
    throw new Error(
      `prune, ${what}: expected a summary of ${describeTally(expected)}, got ${read?.summary ?? `no summary: ${measured.stderr.slice(-500)}`}`,
    );
  context.log(`prune: ${what}: ${measured.seconds.toFixed(1)} s, peak ${mib(measured.peakRssBytes)}; ${read.summary}`);
  return { measured, ...read };
}

interface ReadRun {
  measured: MeasuredRun;
  folder: Folder;
}

/** The baseline: every byte of `dir` read once by a child process. */
async function readEveryByte(context: BenchContext, dir: string): Promise<ReadRun> {
  const measured = await runNodeMeasured([readEveryByteScript, dir], {
    timeReport: join(context.workDir, 'read-time.txt'),
    timeoutMs: pruneTimeoutMs,
  });
  expectSuccess(measured, `reading every byte of ${dir}`);
  const folder = JSON.parse(measured.stdout) as Folder;
  context.log(
    `prune: read ${count(folder.files)} files, ${mib(folder.bytes)}, in ${measured.seconds.toFixed(2)} s (the baseline)`,
  );
  return { measured, folder };
}

const describeFolder = (folder: Folder): string => `${count(folder.files)} files, ${mib(folder.bytes)}`;

/** What each run must report over the nights given: their jobs due thinned, the rest kept. */
function expectations(year: Year, dates: ReadonlySet<string>) {
  const nights = year.nights.filter((night) => dates.has(night.date));
  const due = nights.filter((night) => night.ageDays >= keepPersonalDataDays).length;
  const none: Tally = { thin: 0, remove: 0, finish: 0, keep: 0, leave: 0 };
  return {
    nights: nights.length,
    due,
    first: { ...none, thin: due * jobsPerNight, keep: (nights.length - due) * jobsPerNight },
    again: { ...none, keep: nights.length * jobsPerNight },
  };
}

interface Measured {
  night: Night;
  year: Year;
  copySeconds: number;
  dueNights: number;
  before: ReadRun;
  dryRun: PruneRun;
  first: PruneRun;
  afterFirst: ReadRun;
  again: PruneRun;
  fewNights: number;
  fewFirst: PruneRun;
}

async function measure(context: BenchContext, size: (typeof sizes)['full']): Promise<Measured> {
  context.log(`prune: one real night of ${count(size.claims)} claims against the sandbox…`);
  const night = await makeNight(context, size.claims);
  context.log(`prune: ${count(night.rows)} rows, ${count(night.cases)} cases decided; ${size.nights} dated copies…`);
  const copyStarted = performance.now();
  const year = await makeYear(night, size.nights, context.workDir);
  const copySeconds = (performance.now() - copyStarted) / 1000;
  const all = new Set(year.nights.map((copy) => copy.date));
  const whole = expectations(year, all);
  const paths = [year.nightsDir];

  await freshCopy(year);
  const before = await readEveryByte(context, year.nightsDir);
  const dryRun = await runPrune(context, paths, ['--dry-run'], whole.first, `dry run over ${size.nights} nights`);

  await freshCopy(year);
  const first = await runPrune(context, paths, [], whole.first, `first run over ${size.nights} nights`);
  const afterFirst = await readEveryByte(context, year.nightsDir);
  const again = await runPrune(context, paths, [], whole.again, `again over ${size.nights} nights`);

  // Spread over the year as the whole is: about as many due among them.
  const few = new Set(
    Array.from({ length: size.fewNights }, (_, index) => {
      const picked = year.nights[Math.floor(((index + 0.5) * year.nights.length) / size.fewNights)];
      return picked?.date ?? '';
    }),
  );
  await freshCopy(year, [...few]);
  const fewFirst = await runPrune(
    context,
    paths,
    [],
    expectations(year, few).first,
    `first run over ${few.size} nights`,
  );
  return {
    night,
    year,
    copySeconds,
    dueNights: whole.due,
    before,
    dryRun,
    first,
    afterFirst,
    again,
    fewNights: few.size,
    fewFirst,
  };
}

function rowsOf(measured: Measured): BenchRow[] {
  const { night, year, before, dryRun, first, afterFirst, again, fewFirst } = measured;
  const nights = year.nights.length;
  const jobs = nights * jobsPerNight;
  const size = `${count(nights)} nights of ${count(night.claims)} claims, ${count(jobs)} jobs`;
  const folder = describeFolder(before.folder);
  const made =
    `one real night (import of ${count(night.claims)} claims, ${count(night.rows)} rows, every claim filed; track; sandbox clock +150 days; track: ${count(night.decided)} cases decided), ` +
    `copied into ${count(nights)} dated folders (case ids and written paths made each copy's own, every clock moved back to the folder's date: test/prune/age-job-folder.ts) in ${measured.copySeconds.toFixed(1)} s: ${folder}`;
  const timed = (run: PruneRun, baseline: ReadRun, what: string, goalMet: boolean, note: string): BenchRow => ({
    benchmark: `Prune, ${what} (${size}): wall time`,
    figure: `${run.measured.seconds.toFixed(2)} s, peak ${mib(run.measured.peakRssBytes)}`,
    baseline: `reading every byte once: ${baseline.measured.seconds.toFixed(2)} s (${describeFolder(baseline.folder)})`,
    ratio: run.measured.seconds / baseline.measured.seconds,
    goal: `< ${goals.seconds} s (the ratio, prune ÷ reading every byte, has no goal)`,
    met: goalMet && run.measured.seconds < goals.seconds,
    note: `${run.summary}; ${note}; the processes' wall time (start-up included); peak RSS ${run.measured.peakRssSource}`,
  });
  const peakRatio = first.measured.peakRssBytes / fewFirst.measured.peakRssBytes;
  return [
    timed(
      dryRun,
      before,
      'dry run',
      true,
      `${count(measured.dueNights)} nights of ${count(nights)} are ${keepPersonalDataDays} days past their last case; ${made}`,
    ),
    timed(
      first,
      before,
      'first run',
      true,
      `thinned ${count(first.tally.thin)} jobs, as due (nights 90 days or more past their last case); folder ${folder} → ${describeFolder(afterFirst.folder)}`,
    ),
    timed(
      again,
      afterFirst,
      'again once pruned (steady state)',
      true,
      `every job thinned or not due yet: nothing to change; the baseline reads the folder as the first run left it`,
    ),
    {
      benchmark: `Prune, first run peak RSS: ${count(nights)} nights vs ${count(measured.fewNights)}`,
      figure: `${count(nights)} nights: ${mib(first.measured.peakRssBytes)}`,
      baseline: `${count(measured.fewNights)} nights: ${mib(fewFirst.measured.peakRssBytes)}`,
      ratio: peakRatio,
      goal: `<= ${goals.peakRatio} (large ÷ small, smaller is better)`,
      met: peakRatio <= goals.peakRatio,
      note: `the ${count(measured.fewNights)} nights spread over the year (${fewFirst.summary}); as the memory case measures a child, the larger of GNU time %M and polled /proc VmHWM: large ${first.measured.peakRssSource}; small ${fewFirst.measured.peakRssSource}`,
    },
  ];
}

export const benchCase: BenchCase = {
  name: 'prune',
  async run(context) {
    return rowsOf(await measure(context, context.quick ? sizes.quick : sizes.full));
  },
};
