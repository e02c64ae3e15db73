import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './cli-processes.js';
import { ageJobFolder, makeJobFolder, plantedValuesIn, type JobFolder } from './job-folder.js';
import { filesUnder } from './planted-search.js';

/** The job folder prune's tests start from: real files of every job, planted values where they should be. */

let folder: JobFolder;
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- beforeAll may have failed
let madeInMs = 0;

beforeAll(async () => {
  const started = Date.now();
  folder = await makeJobFolder();
  madeInMs = Date.now() - started;
}, 180_000);

afterAll(async () => {
  await folder?.remove();
});

describe('the job folder', () => {
  it('holds every file of the manifest', async () => {
    console.log(`job folder made in ${String(madeInMs)} ms`);
    const listed = Object.values(folder.files).flatMap((files) => Object.values(files) as string[]);
    for (const file of listed) expect([file, existsSync(file)]).toEqual([file, true]);
    const found = await plantedValuesIn(folder);
    const byFile = new Map<string, string[]>();
    for (const [file, value] of found) byFile.set(relative(folder.dir, file), [...(byFile.get(relative(folder.dir, file)) ?? []), value]);
    console.log(JSON.stringify(Object.fromEntries([...byFile].map(([f, v]) => [f, v.length])), null, 1));
    console.log((await filesUnder(folder.dir)).map((file) => relative(folder.dir, file)));
    void stat;
    void copyFile;
    void mkdtemp;
    void rm;
    void tmpdir;
    void join;
    void Database;
    void runCommand;
    void ageJobFolder;
  });
});
