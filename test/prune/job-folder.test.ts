import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './cli-processes.js';
import { ageJobFolder, makeJobFolder, plantedValuesIn, type JobFolder } from './job-folder.js';
import { plantedBadDate, plantedReviewerNote } from './planted-export.js';
import { filesUnder } from './planted-search.js';

/**
 * The job folder prune's tests start from: every file of the manifest made by its job, the
 * planted values found where their jobs put them (what lets a prune test fail), each journal
 * listing the files its runs wrote, and the clocks moved back by `ageJobFolder`.
 */

let folder: JobFolder | undefined;
const made = () => {
  if (folder === undefined) throw new Error('test: the job folder was not made');
  return folder;
};

beforeAll(async () => {
  folder = await makeJobFolder();
}, 180_000);

afterAll(async () => {
  await folder?.remove();
});

/** A journal's rows read from a copy (with its `-wal`), so that reading leaves nothing in the folder. */
async function fromCopy<T>(journal: string, read: (database: Database.Database) => T): Promise<T> {
  const copyDir = await mkdtemp(join(tmpdir(), 'bulk-disputes-journal-copy-'));
  try {
    const copy = join(copyDir, basename(journal));
    await copyFile(journal, copy);
    if (existsSync(`${journal}-wal`)) await copyFile(`${journal}-wal`, `${copy}-wal`);
    const database = new Database(copy);
    try {
      return read(database);
    } finally {
      database.close();
    }
  } finally {
    await rm(copyDir, { recursive: true, force: true });
  }
}

const metaOf = async (journal: string, key: string) =>
  fromCopy(journal, (database) =>
    database.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key),
  ).then((row) => row?.value);

const journalsOf = (files: JobFolder['files']) => [
  files.import.journal,
  files.workbookImport.journal,
  files.review.fixJournal,
  files.withdraw.journal,
  files.track.journal,
  files.migrate.journal,
];

describe('the job folder', () => {
  it('holds every file of the manifest, and beside them only the journals’ -wal and -shm', async () => {
    const { dir, files, sandboxDb } = made();
    const listed = Object.values(files).flatMap((group) => Object.values<string>(group));
    for (const file of listed) expect([file, existsSync(file)]).toEqual([file, true]);
    const inDir = listed.filter((file) => file.startsWith(`${dir}/`));
    const companions = new Set([...journalsOf(files), files.review.store].flatMap((db) => [`${db}-wal`, `${db}-shm`]));
    const others = (await filesUnder(dir)).filter((file) => !inDir.includes(file) && !companions.has(file));
    expect(others).toEqual([]);
    // The inputs and the service's copy stay beside the folder: prune never deletes them.
    for (const outside of [sandboxDb, files.import.input, files.workbookImport.input, files.import.mapping])
      expect([outside, outside.startsWith(`${dir}/`), existsSync(outside)]).toEqual([outside, false, true]);
  });

  it('has every planted value where its job wrote it: journals, results, the workbook’s inflated parts, payloads, the review store and the fix file', async () => {
    const job = made();
    const { files, plantedBy } = job;
    const found = await plantedValuesIn(job);
    const valuesIn = (file: string) => found.filter(([where]) => where === file).map(([, value]) => value);
    const expectIn = (file: string, values: readonly string[]) => {
      const missing = values.filter((value) => !valuesIn(file).includes(value));
      expect([relative(job.dir, file), missing]).toEqual([relative(job.dir, file), []]);
    };
    // P-11 and P-12 were held back (invalid): nothing of them reached the payloads.
    const ofOllivex = (value: string) => value.toLowerCase().includes('ollivex');
    const heldBack = (value: string) =>
      ofOllivex(value) || value.includes('P-11') || value.includes('P-12') || value === plantedBadDate;
    const fixedClaim = plantedBy.import.filter(ofOllivex);

    expect(plantedBy.import.length).toBe(37);
    expectIn(files.import.journal, plantedBy.import);
    expectIn(files.import.results, plantedBy.import);
    expectIn(
      files.import.payloads,
      plantedBy.import.filter((value) => !heldBack(value)),
    );
    expect(valuesIn(files.import.payloads).filter(heldBack)).toEqual([]);
    expectIn(files.workbookImport.journal, plantedBy.workbookImport);
    expectIn(files.workbookImport.results, plantedBy.workbookImport);
    expectIn(files.review.store, [...fixedClaim, plantedReviewerNote]);
    // The fix file is a results file: its status columns quote the cell the import refused.
    expectIn(files.review.fixFile, [...fixedClaim, plantedReviewerNote, plantedBadDate]);
    expectIn(files.review.fixJournal, [...fixedClaim, plantedReviewerNote]);
    expectIn(files.review.fixResults, [...fixedClaim, plantedReviewerNote]);
    // Grouped by the cardholder's e-mail: the group key is the e-mail.
    expectIn(files.migrate.journal, ['kestrelmoor.9@planted.example', 'wyndcaster.10@planted.example']);
    expectIn(files.migrate.results, ['kestrelmoor.9@planted.example', 'wyndcaster.10@planted.example']);
    // What docs/data.md says holds no cardholder data holds none.
    for (const file of [
      files.withdraw.journal,
      files.withdraw.results,
      files.track.status,
      files.track.worklist,
      files.track.page,
    ])
      expect([relative(job.dir, file), valuesIn(file)]).toEqual([relative(job.dir, file), []]);

    // The workbook's text is deflated: found only by inflating its entries.
    const workbookBytes = await readFile(files.import.results);
    expect(workbookBytes.includes(Buffer.from('Plantedname Quixworth'))).toBe(false);
    expect(valuesIn(files.import.results)).toContain('Plantedname Quixworth');
  });

  it('finds a value written as UTF-16, either byte order, as SQLite may store text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-utf16-'));
    try {
      const value = 'Plantedname Utfsixteen';
      const littleEndian = Buffer.from(`x${value}y`, 'utf16le');
      await writeFile(join(dir, 'le.bin'), littleEndian);
      await writeFile(join(dir, 'be.bin'), Buffer.from(littleEndian).swap16());
      await writeFile(join(dir, 'none.bin'), Buffer.from('Plantedname Utfsixtee', 'utf16le'));
      expect(await plantedValuesIn({ dir, planted: [value] })).toEqual([
        [join(dir, 'be.bin'), value],
        [join(dir, 'le.bin'), value],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('has each journal list the files its runs wrote (written_files); the review’s store and fix file are named by the review alone', async () => {
    const { dir, files } = made();
    const written = async (journal: string) =>
      (JSON.parse((await metaOf(journal, 'written_files')) ?? '[]') as { path: string; role: string }[])
        .map(({ path, role }) => `${role} ${relative(dir, path)}`)
        .sort();
    const at = (role: string, file: string) => `${role} ${relative(dir, file)}`;
    expect(await written(files.import.journal)).toEqual(
      [at('results', files.import.results), at('payloads', files.import.payloads)].sort(),
    );
    expect(await written(files.workbookImport.journal)).toEqual([at('results', files.workbookImport.results)]);
    expect(await written(files.review.fixJournal)).toEqual([at('results', files.review.fixResults)]);
    expect(await written(files.withdraw.journal)).toEqual([at('results', files.withdraw.results)]);
    expect(await written(files.track.journal)).toEqual(
      [at('status', files.track.status), at('worklist', files.track.worklist), at('page', files.track.page)].sort(),
    );
    expect(await written(files.migrate.journal)).toEqual([at('results', files.migrate.results)]);

    const listed = new Set<string>();
    for (const journal of journalsOf(files))
      for (const line of await written(journal)) listed.add(join(dir, line.slice(line.indexOf(' ') + 1)));
    const journals = new Set(journalsOf(files).flatMap((journal) => [journal, `${journal}-wal`, `${journal}-shm`]));
    const unlisted = (await filesUnder(dir)).filter((file) => !listed.has(file) && !journals.has(file));
    expect(unlisted.map((file) => relative(dir, file)).sort()).toEqual(
      [files.review.store, files.review.fixFile].map((file) => relative(dir, file)).sort(),
    );
  });

  it('has every filed case decided on the sandbox clock, then ageJobFolder moves every clock back', async () => {
    const job = made();
    const { files } = job;
    const trackClocks = async () =>
      fromCopy(files.track.journal, (database) => ({
        cases: database
          .prepare<[], { status: string | null; decided_at: string | null }>(
            // The state is kept as a JSON array, its status second (src/job-files/track/case-state.ts).
            "SELECT json_extract(state, '$[1]') AS status, decided_at FROM track_cases ORDER BY case_id",
          )
          .all(),
        runs: database
          .prepare<[], { started: string; ended: string | null }>('SELECT started, ended FROM track_runs ORDER BY run')
          .all(),
      }));
    const before = await trackClocks();
    const statuses = new Set(before.cases.map(({ status }) => status));
    // Every case filed is won or lost (the withdrawn claim's lost); the one never filed stays created.
    expect([...statuses].every((status) => ['won', 'lost', 'closed', 'created'].includes(status ?? ''))).toBe(true);
    expect(before.cases.filter(({ status }) => status === 'created')).toHaveLength(1);
    const decided = before.cases.filter(({ status }) => status !== 'created');
    expect(decided.length).toBeGreaterThan(15);
    for (const { decided_at } of decided) expect(decided_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(before.runs).toHaveLength(2);

    const importJournals = [files.import.journal, files.workbookImport.journal, files.review.fixJournal];
    const settled = async () =>
      Promise.all(importJournals.map(async (journal) => metaOf(journal, 'settled_by_run_at')));
    const settledBefore = await settled();
    const mtimesBefore = await Promise.all(journalsOf(files).map(async (journal) => (await stat(journal)).mtimeMs));
    const days = 400;
    const back = (text: string | null | undefined) =>
      text === null || text === undefined ? text : new Date(Date.parse(text) - days * 86_400_000).toISOString();

    await ageJobFolder(job, days);

    expect(await settled()).toEqual(settledBefore.map(back));
    const after = await trackClocks();
    expect(after.cases.map(({ decided_at }) => decided_at)).toEqual(
      before.cases.map(({ decided_at }) => back(decided_at)),
    );
    expect(after.runs).toEqual(
      before.runs.map(({ started, ended }) => ({ started: back(started), ended: back(ended) })),
    );
    const mtimesAfter = await Promise.all(journalsOf(files).map(async (journal) => (await stat(journal)).mtimeMs));
    for (const [index, mtime] of mtimesAfter.entries())
      expect(Math.round(((mtimesBefore[index] ?? 0) - mtime) / 86_400_000)).toBe(days);
    for (const file of await filesUnder(job.dir))
      expect([file, (await stat(file)).mtimeMs < Date.now() - (days - 1) * 86_400_000]).toEqual([file, true]);
    // Aged, the journals still read as the tool wrote them (a value it did not write would be exit 2).
    for (const journal of [files.import.journal, files.track.journal])
      await runCommand(['report', journal, '--log-level', 'warn'], { cwd: job.dir, env: job.env, exitCodes: [0, 1] });
  });
});
