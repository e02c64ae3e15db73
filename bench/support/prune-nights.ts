import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { ageJobFolder } from '../../test/prune/age-job-folder.js';
import type { Night } from './prune-night.js';

/**
 * A year of nights for the prune case: one real night (bench/support/prune-night.ts) copied into
 * a dated folder per night, `nights/2025-12-01/` …, each copy made to look as if it had been
 * that night's, so that prune tells them apart as it would a year of real ones:
 * - its case ids made its own (the night's date before each): every copy of one export names the
 *   same cases, and prune dates a job by what the track journals last saw of its cases, whichever
 *   job saw them (src/prune/case-book.ts), so copies sharing ids would all be dated by the newest;
 * - the files its journals recorded (`written_files`, absolute) moved to the copy's folder, where
 *   prune will find the copy, not the template;
 * - every clock moved back as the prune tests move it (test/prune/age-job-folder.ts): by the
 *   night's age plus the days the sandbox clock ran ahead of the real time, so that the night's
 *   last case closed on the date its folder is named after.
 * The copies are made once, into a template beside the folder they are measured in, and copied
 * there afresh before each measurement (`cp -a`, times kept): the written paths name that folder.
 */

const dayMs = 86_400_000;
const run = promisify(execFile);

export interface NightCopy {
  /** `2025-12-01`: the day its last case closed. */
  readonly date: string;
  /** Whole days from that day to when the copies were made. */
  readonly ageDays: number;
}

export interface Year {
  /** Holds a folder per night, named by its date: copied into `nightsDir` by `freshCopy`. */
  readonly templateDir: string;
  /** Where prune runs: the paths the journals record point here. */
  readonly nightsDir: string;
  /** Newest first: ages 1, 2, … days. */
  readonly nights: readonly NightCopy[];
  readonly madeAt: Date;
}

const day = (date: Date): string => date.toISOString().slice(0, 10);

/** Nights a year holds: `count` copies are spread over it (a night every day when `count` is 365). */
const yearDays = 365;

/** The template of `count` nights (at most a year's), the oldest `yearDays` days before now. */
export async function makeYear(night: Night, count: number, workDir: string): Promise<Year> {
  if (count < 1 || count > yearDays) throw new Error(`prune nights: expected 1 to ${yearDays} nights, got ${count}`);
  const templateDir = join(workDir, 'nights-template');
  const nightsDir = join(workDir, 'nights');
  await rm(templateDir, { recursive: true, force: true });
  await mkdir(templateDir, { recursive: true });
  const madeAt = new Date();
  // How far ahead of the real time the sandbox's clock was when track saw the last case decided.
  const aheadDays = (night.lastDecidedAt.getTime() - madeAt.getTime()) / dayMs;
  const nights: NightCopy[] = [];
  for (let index = 1; index <= count; index++) {
    const ageDays = Math.round((index * yearDays) / count);
    const date = day(new Date(madeAt.getTime() - ageDays * dayMs));
    const dir = join(templateDir, date);
    await cp(night.dir, dir, { recursive: true, preserveTimestamps: true });
    for (const journal of (await readdir(dir)).filter((name) => name.endsWith('.journal.sqlite')))
      makeOwn(join(dir, journal), { from: night.dir, to: join(nightsDir, date), idPrefix: `${date}.` });
    await ageJobFolder({ dir }, ageDays + aheadDays);
    nights.push({ date, ageDays });
  }
  return { templateDir, nightsDir, nights, madeAt };
}

/** The copy's case ids and written paths, in one transaction (the columns every journal kind names them in). */
function makeOwn(journal: string, copy: { from: string; to: string; idPrefix: string }): void {
  const database = new Database(journal);
  try {
    const columns = new Set(
      database
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .flatMap(({ name }) =>
          database
            .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}')`)
            .all()
            .map((column) => `${name}.${column.name}`),
        ),
    );
    database.transaction(() => {
      for (const table of ['rows', 'track_rows', 'track_cases', 'withdraw_lines'])
        if (columns.has(`${table}.case_id`))
          database
            .prepare(`UPDATE ${table} SET case_id = ? || case_id WHERE case_id IS NOT NULL AND case_id <> ''`)
            .run(copy.idPrefix);
      if (columns.has('rows.case_json'))
        database
          .prepare(`UPDATE rows SET case_json = replace(case_json, '"case_id":"', '"case_id":"' || ?)`)
          .run(copy.idPrefix);
      database
        .prepare('UPDATE meta SET value = replace(value, ?, ?)')
        .run(JSON.stringify(`${copy.from}/`).slice(1, -1), JSON.stringify(`${copy.to}/`).slice(1, -1));
    })();
  } finally {
    database.close();
  }
}

/**
 * `nightsDir` afresh from the template: all of its nights, or only those dated `only`. Not timed:
 * `cp -a` keeps the files' times, which prune reads.
 */
export async function freshCopy(year: Year, only?: readonly string[]): Promise<void> {
  await rm(year.nightsDir, { recursive: true, force: true });
  await mkdir(year.nightsDir, { recursive: true });
  const dates = only ?? year.nights.map((night) => night.date);
  // A few hundred folders an invocation: one `cp` per night would cost a process each.
  for (let from = 0; from < dates.length; from += 200) {
    const sources = dates.slice(from, from + 200).map((date) => join(year.templateDir, date));
    await run('cp', ['-a', ...sources, year.nightsDir]);
  }
}
