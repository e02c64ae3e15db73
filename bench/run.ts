import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCase as evidence } from './cases/evidence.js';
import { benchCase as fixedWidth } from './cases/fixed-width.js';
import { benchCase as memory } from './cases/memory.js';
import { benchCase as network } from './cases/network.js';
import { benchCase as objectStorage } from './cases/object-storage.js';
import { benchCase as packageCase } from './cases/package.js';
import { benchCase as prune } from './cases/prune.js';
import { benchCase as rateLimit } from './cases/rate-limit.js';
import { benchCase as refusals } from './cases/refusals.js';
import { benchCase as resume } from './cases/resume.js';
import { benchCase as review } from './cases/review.js';
import { benchCase as sandbox } from './cases/sandbox.js';
import { benchCase as stage } from './cases/stage.js';
import { benchCase as submit } from './cases/submit.js';
import { benchCase as track } from './cases/track.js';
import { benchCase as weather } from './cases/weather.js';
import { benchCase as wholeNight } from './cases/whole-night.js';
import { benchCase as withdraw } from './cases/withdraw.js';
import { benchCase as workbook } from './cases/workbook.js';
import { builtCli, repoRoot } from './support/paths.js';
import { formatDuration, renderDocument } from './table.js';
import type { BenchCase, BenchContext, BenchRow } from './types.js';

/**
 * `npm run bench [-- --quick] [-- --only name[,name]] [-- --cli FILE]`: runs the benchmark cases one after another
 * (never in parallel: they would measure each other), each in its own scratch directory, then
 * prints the table and writes it to BENCHMARKS.md. `--quick` writes out/BENCHMARKS.quick.md instead
 * (smoke-test sizes say nothing about the goals), and `--only` out/BENCHMARKS.only.md (a partial
 * run must not replace the whole table). A case that throws becomes a row with its error,
 * so one broken case does not cost the figures of the others. `--cli` measures another build of
 * the CLI (an earlier commit's `dist/cli/bin.js`) against the same baselines and anchors, for a
 * before → after table; its table goes to out/BENCHMARKS.cli.md.
 */

/** In the order the cases were added, the table's row order. */
const allCases: readonly BenchCase[] = [
  stage,
  submit,
  memory,
  sandbox,
  resume,
  evidence,
  rateLimit,
  refusals,
  workbook,
  network,
  review,
  withdraw,
  track,
  packageCase,
  weather,
  fixedWidth,
  prune,
  objectStorage,
  wholeNight,
];

interface Flags {
  quick: boolean;
  only: readonly BenchCase[];
  cli: string | undefined;
}

function parseFlags(argv: readonly string[]): Flags {
  const { values } = parseArgs({
    args: [...argv],
    options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, cli: { type: 'string' } },
    strict: true,
  });
  const cli = values.cli === undefined ? undefined : resolve(values.cli);
  if (values.only === undefined) return { quick: values.quick, only: allCases, cli };
  const names = values.only
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !allCases.some((benchCase) => benchCase.name === name));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(
      `--only: expected names among ${allCases.map((benchCase) => benchCase.name).join(', ')}, got ${values.only}`,
    );
  }
  // The suite's order, whatever the order of the flag.
  return { quick: values.quick, only: allCases.filter((benchCase) => names.includes(benchCase.name)), cli };
}

/** The row a failing case leaves: which case, and why, where its figures would have been. */
function failureRow(benchCase: BenchCase, error: unknown): BenchRow {
  const message = error instanceof Error ? error.message : String(error);
  return {
    benchmark: `${benchCase.name} (failed)`,
    figure: 'none',
    baseline: 'none',
    ratio: Number.NaN,
    goal: 'the case runs to the end',
    met: false,
    note: `error: ${message.slice(0, 500)}`,
  };
}

const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

async function main(argv: readonly string[]): Promise<void> {
  const flags = parseFlags(argv);
  const startedAt = new Date();
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), 'bulk-disputes-bench-'));
  // Ctrl-C: the children get the signal too; leave no gigabyte of generated CSVs behind.
  process.once('SIGINT', () => {
    rmSync(root, { recursive: true, force: true });
    process.exit(130);
  });

  const rows: BenchRow[] = [];
  let failedCases = 0;
  const caseSeconds: { name: string; seconds: number }[] = [];
  try {
    for (const benchCase of flags.only) {
      // A directory per case, removed as soon as the case ends: the next case gets the disk back.
      const workDir = join(root, benchCase.name);
      await mkdir(workDir);
      const context: BenchContext = {
        workDir,
        cliBin: flags.cli ?? builtCli,
        sandboxCliBin: builtCli,
        quick: flags.quick,
        log: (message) => {
          log(message);
        },
      };
      const caseStarted = performance.now();
      log(`${benchCase.name}: starting${flags.quick ? ' (quick)' : ''}`);
      try {
        rows.push(...(await benchCase.run(context)));
      } catch (error) {
        log(`${benchCase.name}: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        rows.push(failureRow(benchCase, error));
        failedCases++;
      }
      const seconds = (performance.now() - caseStarted) / 1000;
      caseSeconds.push({ name: benchCase.name, seconds });
      log(`${benchCase.name}: done in ${formatDuration(seconds)}`);
      await rm(workDir, { recursive: true, force: true });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }

  const command = ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ');
  const document = renderDocument(
    {
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
      cores: cpus().length,
      totalMemoryBytes: totalmem(),
      nodeVersion: process.version,
      startedAt,
      totalSeconds: (performance.now() - started) / 1000,
      command,
      caseSeconds,
    },
    rows,
  );
  const outputFile = join(
    repoRoot,
    flags.quick
      ? 'out/BENCHMARKS.quick.md'
      : flags.cli !== undefined
        ? 'out/BENCHMARKS.cli.md'
        : flags.only.length < allCases.length
          ? 'out/BENCHMARKS.only.md'
          : 'BENCHMARKS.md',
  );
  await mkdir(dirname(outputFile), { recursive: true });
  await writeFile(outputFile, document);
  process.stdout.write(document);
  log(`written to ${outputFile}`);
  // The table is written either way; the exit code tells a script that a case did not run.
  if (failedCases > 0) process.exitCode = 1;
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
}
