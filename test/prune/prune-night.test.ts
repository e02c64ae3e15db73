import { createHash } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ExcelJS from 'exceljs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './cli-processes.js';
import { ageJobFolder, makeJobFolder, plantedValuesIn, type JobFolder } from './job-folder.js';
import { filesUnder } from './planted-search.js';

/**
 * `bulk-disputes prune` over the files a real night leaves behind, made by every job
 * (test/prune/job-folder.ts), aged as the days pass: left alone while a case is open, thinned once
 * the personal-data period has passed (no planted value readable in any byte of any file, SQLite
 * pages and logs included), still serving withdraw, track and report, and removed once the records
 * period has passed (docs/data.md, "Retention").
 */

let folder: JobFolder;
let resultsBefore: string[][] = [];
let claimsBefore: string[] = [];
const quiet = ['--log-level', 'warn'];

beforeAll(async () => {
  folder = await makeJobFolder();
}, 240_000);

afterAll(async () => {
  await folder.remove();
});

async function prune(...args: string[]) {
  return runCommand(['prune', '.', ...args], { cwd: folder.dir, env: folder.env, exitCodes: [0] });
}

async function run(args: readonly string[], exitCodes: readonly number[] = [0, 1]) {
  return runCommand([...args, ...quiet], { cwd: folder.dir, env: folder.env, exitCodes });
}

/** Every file under the folder with its bytes' digest: what "nothing changed" compares. */
async function snapshot(): Promise<Map<string, string>> {
  const files = await filesUnder(folder.dir);
  const content = await Promise.all(files.map(async (file) => ({ file, bytes: (await stat(file)).size })));
  return new Map(
    await Promise.all(
      content
        // SQLite's shared-memory index and an empty log hold nothing: every reading may leave them.
        .filter(({ file, bytes }) => !file.endsWith('-shm') && !(file.endsWith('-wal') && bytes === 0))
        .map(({ file }) => file)
        .map(
          async (file) =>
            [
              relative(folder.dir, file),
              createHash('sha256')
                .update(await readFile(file))
                .digest('hex'),
            ] as const,
        ),
    ),
  );
}

async function recordLines(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(folder.dir, 'prune-record.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const days = 86_400_000;

/** A results workbook's rows as text, its header first. */
async function workbookRows(file: string): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const rows: string[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push(
      (row.values as unknown[])
        .slice(1)
        .map((value) =>
          typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value),
        ),
    );
  });
  return rows;
}

/** Every claim id the service holds: a re-run that sent nothing leaves the list as it was. */
async function claimsAtService(): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const address = new URL('/v2/issuer/claims', folder.env.CLAIMS_BASE_URL);
    address.searchParams.set('limit', '100');
    if (after !== undefined) address.searchParams.set('starting_after', after);
    const answer = await request(address, {
      headers: { authorization: `Basic ${Buffer.from(`${folder.env.CLAIMS_API_KEY ?? ''}:`).toString('base64')}` },
    });
    const page = (await answer.body.json()) as { data: { claim_id: string }[]; has_more?: boolean };
    ids.push(...page.data.map((claim) => claim.claim_id));
    after = page.data.at(-1)?.claim_id;
    if (page.has_more !== true || after === undefined) return ids.sort();
  }
}

describe('prune over a night of real job files', () => {
  it('leaves every job alone while its cases are open or unseen, changing nothing, and says why', async () => {
    const before = await snapshot();
    const { stdout } = await prune('--dry-run');
    expect(await snapshot()).toEqual(before);
    // P-07 was created and never filed: its case is open at the service.
    expect(stdout).toMatch(
      /left alone: out\/night\.journal\.sqlite \(import\): 1 case of \d+ still open as track last saw it/,
    );
    // The workbook's import and the feed-back were never tracked.
    expect(stdout).toMatch(
      /left alone: morning\.journal\.sqlite \(import\): \d+ cases? of \d+ never seen closed by a track journal here: run track/,
    );
    expect(stdout).not.toMatch(/would (thin|remove)/);
    // A real run changes nothing either, but for its record's run line.
    await prune();
    const after = await snapshot();
    after.delete('prune-record.jsonl');
    expect(after).toEqual(before);
    expect((await recordLines()).map((line) => line.event)).toEqual(['run']);
  });

  it('thins every finished job once the personal-data period has passed: no planted value left in any byte', async () => {
    // The rest of the night's work: P-07 taken back, every job's cases followed to their end.
    await run([
      'withdraw',
      'out/night.journal.sqlite',
      '--claim-key',
      'P-07',
      '--journal',
      'out/p07.withdraw.journal.sqlite',
      '--results',
      'p07.withdraw.results.csv',
    ]);
    // The migration's claims were created, never filed: taken back too.
    await run([
      'withdraw',
      'migrate-v1.journal.sqlite',
      '--journal',
      'out/migrated.withdraw.journal.sqlite',
      '--results',
      'migrated.withdraw.results.csv',
    ]);
    await run(['track', 'morning.journal.sqlite', 'out/night.fix-1.journal.sqlite', 'migrate-v1.journal.sqlite']);
    await run(['track', 'out/night.journal.sqlite']);
    expect(await plantedValuesIn(folder)).not.toEqual([]);
    // The night's results as the import wrote them, kept outside the folder to compare a re-run with.
    resultsBefore = await workbookRows(folder.files.import.results);
    claimsBefore = await claimsAtService();
    expect(claimsBefore.length).toBeGreaterThan(10);
    // The sandbox decides on its own clock, 150 days ahead: 400 days on, every closing is 250 days old.
    await ageJobFolder(folder, 400);

    const { stdout: listed } = await prune('--dry-run');
    expect(listed).not.toMatch(/left alone/);
    expect(listed).toMatch(
      /would thin: out\/night\.journal\.sqlite \(import\): last case closed \d{4}-\d\d-\d\d; personal data due/,
    );
    expect(listed).toMatch(
      /would delete out\/night\.payloads\.jsonl \(payloads, [\d.]+ KiB: claims as sent: cardholder details, statements\)/,
    );
    expect(listed).toMatch(/would delete out\/night\.journal\.sqlite\.review\.sqlite \(review-store/);
    expect(listed).toMatch(/would delete out\/night\.fix-1\.results\.csv \(fix-file/);

    const { stdout } = await prune();
    const thinned = stdout.split('\n').filter((line) => line.startsWith('thinned: '));
    // Two imports, the feed-back's, three withdraws, two tracks, the migration.
    expect(thinned).toHaveLength(9);
    expect((await plantedValuesIn(folder)).map(([file, value]) => `${relative(folder.dir, file)}: ${value}`)).toEqual(
      [],
    );
    for (const gone of [
      folder.files.import.results,
      folder.files.import.payloads,
      folder.files.workbookImport.results,
      folder.files.review.store,
      folder.files.review.fixFile,
      folder.files.review.fixResults,
      folder.files.track.status,
      folder.files.track.worklist,
      folder.files.track.page,
      folder.files.withdraw.results,
      folder.files.migrate.results,
    ])
      await expect(stat(gone), gone).rejects.toThrow(/ENOENT/);
    const lines = await recordLines();
    expect(lines.filter((line) => line.event === 'thinned')).toHaveLength(9);
    const recordText = await readFile(join(folder.dir, 'prune-record.jsonl'), 'utf8');
    for (const value of folder.planted) expect(recordText).not.toContain(value);
    const night = lines.find((line) => line.job === folder.files.import.journal);
    expect(night).toMatchObject({
      kind: 'import',
      policy: { keep_personal_data: '90d', keep_records: '7y' },
      since: { what: 'last case closed' },
    });
    expect((night?.files as { role: string }[]).map((file) => file.role).sort()).toEqual([
      'fix-file',
      'payloads',
      'results',
      'review-store',
    ]);
  });

  it('a second prune finds nothing more to do', async () => {
    const before = await snapshot();
    const { stdout } = await prune();
    expect(stdout).not.toMatch(/^(thinned|removed|finished):/m);
    expect(stdout.match(/^kept: .*thinned \d{4}-\d\d-\d\d; records kept until/gm)).toHaveLength(9);
    const after = await snapshot();
    before.delete('prune-record.jsonl');
    after.delete('prune-record.jsonl');
    expect(after).toEqual(before);
  });

  it('the thinned journals still serve withdraw, track and report by ids', async () => {
    await run([
      'withdraw',
      'out/night.journal.sqlite',
      '--claim-key',
      'P-05',
      '--dry-run',
      '--results',
      'p05.dry-run.csv',
    ]);
    const planned = await readFile(join(folder.dir, 'p05.dry-run.csv'), 'utf8');
    expect(planned).toMatch(/^P-05,/m);
    // A dry run's results: the test's, not a job's (a dry run keeps no journal).
    await rm(join(folder.dir, 'p05.dry-run.csv'));
    await run(['track', 'out/night.journal.sqlite']);
    const report = await run(['report', 'out/night.journal.sqlite']);
    expect(report.stdout).toMatch(/rows/);
    expect((await plantedValuesIn(folder)).map(([file, value]) => `${relative(folder.dir, file)}: ${value}`)).toEqual(
      [],
    );
  });

  it('the same export imported again files nothing and reports every row as before', async () => {
    const { files } = folder;
    const again = await run([
      'import',
      files.import.input,
      '--mapping',
      files.import.mapping,
      '--evidence-dir',
      files.import.evidenceDir,
      '--journal',
      'out/night.journal.sqlite',
      '--results',
      'out/night.results.xlsx',
    ]);
    expect(again.stderr).toMatch(/thinned by prune on \d{4}-\d\d-\d\d/);
    expect(await claimsAtService()).toEqual(claimsBefore);
    const rows = await workbookRows(files.import.results);
    expect(rows).toHaveLength(resultsBefore.length);
    // Every status cell as before but a message prune replaced because it quoted its row; every source cell as read.
    const message = resultsBefore[0]?.indexOf('error_message') ?? -1;
    for (const [index, row] of rows.entries()) {
      const before = resultsBefore[index] ?? [];
      expect(
        row.filter((_, column) => column !== message),
        `line ${index + 1}`,
      ).toEqual(before.filter((_, column) => column !== message));
      if (row[message] !== before[message]) expect(row[message]).toMatch(/^message removed by prune/);
    }
    // The results hold the rows again, as the export does: the next prune deletes them.
    expect(await plantedValuesIn(folder)).not.toEqual([]);
    const { stdout } = await prune();
    expect(stdout).toMatch(
      /^finished: out\/night\.journal\.sqlite \(import\): thinned \d{4}-\d\d-\d\d, files of it left by a prune that stopped/m,
    );
    expect(await plantedValuesIn(folder)).toEqual([]);
  });

  it('removes every file of a job once its records period has passed', async () => {
    await ageJobFolder(folder, 8 * 366);
    const { stdout } = await prune();
    expect(stdout.match(/^removed: /gm)).toHaveLength(9);
    const left = (await filesUnder(folder.dir)).map((file) => relative(folder.dir, file));
    expect(left).toEqual(['prune-record.jsonl']);
    const removed = (await recordLines()).filter((line) => line.event === 'removed');
    expect(removed).toHaveLength(9);
    for (const line of removed) expect(Date.parse(String(line.at))).toBeGreaterThan(Date.now() - days);
  });
});
