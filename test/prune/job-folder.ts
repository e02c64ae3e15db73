import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { request } from 'undici';
import { runCommand, startServing } from './cli-processes.js';
import {
  exportColumns,
  mappingWithBillingAddress,
  morningExport,
  nightExport,
  plantedBadDate,
  plantedReviewerNote,
  v1Cases,
  type ExportRow,
} from './planted-export.js';
import { reviewAndSaveFix, runPrintedCommand } from './review-session.js';

export { ageJobFolder } from './age-job-folder.js';
export { plantedValuesIn } from './planted-search.js';

/**
 * The files a real night leaves behind (docs/data.md, "Every file, by job"), each made by its own
 * command of the built CLI against one sandbox process: for prune's tests, which must be able to
 * fail. Beside the job folder, never in it: the bank's exports and evidence (the tool only reads
 * them, and prune leaves them), the sandbox's database (the service's copy) and a shim that runs
 * the commands the review page prints.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface JobFolder {
  /** The folder: the cwd of the commands, holding every file they wrote and nothing else. */
  dir: string;
  /** Kept outside `dir`: the service's copy is not a job file. */
  sandboxDb: string;
  /** Every planted value. */
  planted: readonly string[];
  /** The planted values each input carried to the jobs. */
  plantedBy: {
    import: readonly string[];
    workbookImport: readonly string[];
    /** What the reviewer typed into the row they fixed. */
    review: readonly string[];
    /** At the service only (v1 cases); `--group-by cardholder.email,…` carries the e-mails into the migration's files. */
    migrate: readonly string[];
  };
  files: {
    import: { journal: string; results: string; payloads: string; input: string; mapping: string; evidenceDir: string };
    workbookImport: { journal: string; results: string; input: string; mapping: string; evidenceDir: string };
    review: { store: string; fixFile: string; fixJournal: string; fixResults: string };
    withdraw: { journal: string; results: string };
    track: { journal: string; status: string; worklist: string; page: string };
    migrate: { journal: string; results: string };
  };
  /** The claim key withdrawn, and the claim key the review fixed. */
  claimKeys: { withdrawn: string; fixed: string };
  /** The sandbox's clock once every filed case is decided: ahead of the real time, so `decided_at` are too. */
  sandboxClock: string;
  /** What the commands need (the service and its key) to run more commands in the folder. */
  env: Record<string, string>;
  /** Stops the sandbox process. */
  stop(): Promise<void>;
  /** Stops the sandbox and removes the folder and everything beside it. */
  remove(): Promise<void>;
}

/** How far the sandbox's clock is moved for every filed case to be decided: every path ends within 120 days (docs/sandbox.md). */
const decidedAfterDays = 150;

export async function makeJobFolder(): Promise<JobFolder> {
  const top = await mkdtemp(join(tmpdir(), 'bulk-disputes-job-folder-'));
  const dir = join(top, 'job');
  const inbox = join(top, 'inbox');
  const serviceDir = join(top, 'service');
  const toolsDir = join(top, 'tools');
  await Promise.all([dir, inbox, serviceDir, toolsDir].map(async (folder) => mkdir(folder, { recursive: true })));
  const evidenceDir = join(inbox, 'evidence');
  const mapping = join(inbox, 'generic-with-address.yaml');
  const night = nightExport();
  const morning = morningExport();
  const v1 = v1Cases();
  const input = join(inbox, 'night.csv');
  const workbookInput = join(inbox, 'morning.xlsx');
  await Promise.all([
    cp(join(root, 'samples/evidence'), evidenceDir, { recursive: true }),
    mappingWithBillingAddress().then(async (text) => writeFile(mapping, text)),
    writeFile(input, stringify(night.rows, { header: true, columns: [...exportColumns] })),
    writeWorkbook(workbookInput, morning.rows),
  ]);

  const sandboxDb = join(serviceDir, 'sandbox.db');
  const apiKey = `test_${randomBytes(12).toString('hex')}`;
  const sandbox = await startServing(
    [
      'sandbox',
      '--port',
      '0',
      '--db',
      sandboxDb,
      '--api-key',
      apiKey,
      '--control',
      '--outcomes',
      '--log-level',
      'warn',
    ],
    /sandbox listening on (http:\/\/\S+)/,
    { cwd: serviceDir, env: {} },
  );
  const remove = async () => {
    await sandbox.stop();
    await rm(top, { recursive: true, force: true });
  };
  try {
    const baseUrl = sandbox.printed[1] ?? '';
    const env = { CLAIMS_BASE_URL: baseUrl, CLAIMS_API_KEY: apiKey };
    const inDir = { cwd: dir, env };
    const service = serviceCalls(baseUrl, apiKey);
    const files: JobFolder['files'] = {
      import: {
        journal: join(dir, 'out/night.journal.sqlite'),
        results: join(dir, 'out/night.results.xlsx'),
        payloads: join(dir, 'out/night.payloads.jsonl'),
        input,
        mapping,
        evidenceDir,
      },
      // Named by default, as a workbook input's are: here, after the input.
      workbookImport: {
        journal: join(dir, 'morning.journal.sqlite'),
        results: join(dir, 'morning.results.xlsx'),
        input: workbookInput,
        mapping,
        evidenceDir,
      },
      review: {
        store: join(dir, 'out/night.journal.sqlite.review.sqlite'),
        fixFile: join(dir, 'out/night.fix-1.results.csv'),
        fixJournal: join(dir, 'out/night.fix-1.journal.sqlite'),
        // The printed command names no results: its default, here.
        fixResults: join(dir, 'out/night.fix-1.sent.results.csv'),
      },
      // Beside the source (the journal), results here.
      withdraw: {
        journal: join(dir, 'out/night.withdraw.journal.sqlite'),
        results: join(dir, 'night.withdraw.results.csv'),
      },
      track: {
        journal: join(dir, 'out/night.track.journal.sqlite'),
        status: join(dir, 'night.track.csv'),
        worklist: join(dir, 'night.track.worklist.csv'),
        page: join(dir, 'out/night.track.html'),
      },
      migrate: { journal: join(dir, 'migrate-v1.journal.sqlite'), results: join(dir, 'migrate-v1.results.csv') },
    };
    for (const body of v1.cases) await service.post('/v1/issuer/cases', body);

    const quiet = ['--log-level', 'warn'];
    await Promise.all([
      // Exit 1: rows not filed (P-07) and invalid (P-11, P-12), on purpose.
      runCommand(
        [
          'import',
          input,
          '--mapping',
          mapping,
          '--evidence-dir',
          evidenceDir,
          '--journal',
          'out/night.journal.sqlite',
          '--results',
          'out/night.results.xlsx',
          '--payloads',
          'out/night.payloads.jsonl',
          ...quiet,
        ],
        { ...inDir, exitCodes: [1] },
      ),
      runCommand(['import', workbookInput, '--mapping', mapping, '--evidence-dir', evidenceDir, ...quiet], {
        ...inDir,
        exitCodes: [0],
      }),
      runCommand(['migrate-v1', '--group-by', v1.groupBy, ...quiet], { ...inDir, exitCodes: [0] }),
    ]);

    const fix = await reviewAndSaveFix(
      files.import.journal,
      {
        claimKey: night.fixRef,
        // The date fixed on the row that quoted it; the statement, shared by the claim's rows, retyped on each.
        cells: (row) => ({
          ...(row.dispute_date === plantedBadDate ? { dispute_date: night.fixedByReview } : {}),
          cardholder_statement: plantedReviewerNote,
        }),
      },
      inDir,
    );
    if (fix.file !== files.review.fixFile || fix.journal !== files.review.fixJournal)
      throw new Error(`test: the review saved ${fix.file} (journal ${fix.journal}), expected ${files.review.fixFile}`);
    const fedBack = await runPrintedCommand(fix.command, { ...inDir, toolsDir });
    if (fedBack.exitCode !== 0)
      throw new Error(
        `test: the printed feed-back command exited ${String(fedBack.exitCode)}: ${fix.command}\n${fedBack.stderr}`,
      );

    const withdrawn = 'P-03';
    await runCommand(['withdraw', files.import.journal, '--claim-key', withdrawn, ...quiet], {
      ...inDir,
      exitCodes: [0],
    });
    const track = ['track', files.import.journal, '--html', 'out/night.track.html', ...quiet];
    // Exit 1: something on the worklist (the case never filed, at least).
    await runCommand(track, { ...inDir, exitCodes: [0, 1] });
    const { now } = (await service.post('/_sandbox/clock', { advance_days: decidedAfterDays })) as { now: string };
    await runCommand(track, { ...inDir, exitCodes: [0, 1] });

    const plantedBy = {
      import: night.planted,
      workbookImport: morning.planted,
      review: [plantedReviewerNote],
      migrate: v1.planted,
    };
    return {
      dir,
      sandboxDb,
      planted: Object.values(plantedBy).flat(),
      plantedBy,
      files,
      claimKeys: { withdrawn, fixed: night.fixRef },
      sandboxClock: now,
      env,
      stop: async () => sandbox.stop(),
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The export as a bank delivers it in a workbook: a header row, then every cell as text. */
async function writeWorkbook(file: string, rows: readonly ExportRow[]): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Disputes');
  sheet.addRow([...exportColumns]);
  for (const row of rows) sheet.addRow(exportColumns.map((column) => row[column]));
  await workbook.xlsx.writeFile(file);
}

/** The sandbox's own routes, called as curl would (docs/sandbox.md): v1 cases, the control prefix. */
function serviceCalls(baseUrl: string, apiKey: string) {
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  return {
    post: async (path: string, body: unknown): Promise<unknown> => {
      const response = await request(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300) throw new Error(`test: POST ${path}: ${String(response.statusCode)} ${text}`);
      return JSON.parse(text) as unknown;
    },
  };
}
