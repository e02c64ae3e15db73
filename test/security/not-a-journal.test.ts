import { readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { runBin } from '../helpers/cli.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * A journal path (or the sandbox's database) at a file that is no SQLite database: the job refuses
 * it, exit 2 with its code and the file named (running again would meet the same file: never 3),
 * no stack trace, nothing sent, the file as it was. A link to such a file is refused as a link.
 */

const root = new URL('../..', import.meta.url).pathname;
const sample = join(root, 'samples/generic-export.csv');
const mapping = ['--mapping', join(root, 'mappings/generic.yaml'), '--evidence-dir', join(root, 'samples/evidence')];
const apiKey = 'test_not_a_journal_0001';
const notes = 'meeting notes, 3 March: nothing to do with disputes\n';

const jobs: Record<string, (journal: string, folder: string) => string[]> = {
  import: (journal, folder) => ['import', sample, ...mapping, '--journal', journal, '--results', join(folder, 'r.csv')],
  withdraw: (journal, folder) => [
    'withdraw',
    join(folder, 'ids.csv'),
    '--yes',
    '--journal',
    journal,
    '--results',
    join(folder, 'w.csv'),
  ],
  track: (journal, folder) => [
    'track',
    join(folder, 'ids.csv'),
    '--journal',
    journal,
    '--results',
    join(folder, 't.csv'),
  ],
  'migrate-v1': (journal, folder) => ['migrate-v1', '--journal', journal, '--results', join(folder, 'm.csv')],
};

it.each(Object.entries(jobs))(
  '%s: a journal path at a file that is not a journal is exit 2, JOURNAL_NOT_A_JOURNAL, nothing sent',
  { timeout: 120_000 },
  async (_name, argv) => {
    const folder = await temporaryFolder('bulk-disputes-not-a-journal-');
    const sandbox = await startSandboxProcess(['--db', join(folder, 'sandbox.db'), '--api-key', apiKey]);
    try {
      await writeFile(join(folder, 'ids.csv'), 'claim_id\nCLM-D-2026-0101\n');
      const journal = join(folder, 'notes.txt');
      await writeFile(journal, notes, { mode: 0o644 });
      const env = { CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: apiKey };
      const run = await runBin(argv(journal, folder), env, { cwd: folder });
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toContain('JOURNAL_NOT_A_JOURNAL');
      expect(run.stderr).toContain(`JOURNAL_NOT_A_JOURNAL: ${journal}: expected`);
      expect(run.stderr).toMatch(/expected an? [\w-]+ journal \(SQLite\), got a file that is not one/);
      expect(run.stderr).toContain('give another --journal or move it away');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(await readFile(journal, 'utf8')).toBe(notes);
      expect((await stat(journal)).mode & 0o777).toBe(0o644);
      // Nothing reached the service: it holds no claim.
      const client = new ClaimsClient({ baseUrl: sandbox.url, apiKey, retry: { maxAttempts: 1 } });
      try {
        expect((await client.claims.list({ limit: 100 })).data.data).toEqual([]);
      } finally {
        await client.close();
      }

      // A link to it is refused as a link: named, and its target.
      const link = join(folder, 'link.sqlite');
      await symlink(journal, link);
      const linked = await runBin(argv(link, folder), env, { cwd: folder });
      expect(linked.exitCode, linked.stderr).toBe(2);
      expect(linked.stderr).toContain(
        `OUTPUT_IS_A_LINK: expected a file of our own at ${link}, got a symbolic link to ${journal}`,
      );
      expect(await readFile(journal, 'utf8')).toBe(notes);
    } finally {
      sandbox.child.kill('SIGTERM');
    }
  },
);

it(
  'the embedded sandbox at a file that is not a database is exit 2, SANDBOX_NOT_A_DATABASE',
  { timeout: 60_000 },
  async () => {
    const folder = await temporaryFolder('bulk-disputes-not-a-db-');
    const db = join(folder, 'sandbox.db');
    await writeFile(db, notes, { mode: 0o644 });
    const argv = ['import', sample, ...mapping, '--sandbox-db', db, '--journal', join(folder, 'j.sqlite')];
    const run = await runBin([...argv, '--results', join(folder, 'r.csv')], {}, { cwd: folder });
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`SANDBOX_NOT_A_DATABASE: ${db}: expected the sandbox's database (SQLite)`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(db, 'utf8')).toBe(notes);
    expect((await stat(db)).mode & 0o777).toBe(0o644);
  },
);

it('a review store that is not one is exit 2, JOURNAL_NOT_A_JOURNAL, naming it', { timeout: 120_000 }, async () => {
  const folder = await temporaryFolder('bulk-disputes-not-a-store-');
  const journal = join(folder, 'j.sqlite');
  const files = ['--journal', journal, '--results', join(folder, 'r.csv'), '--sandbox-db', join(folder, 'sandbox.db')];
  const imported = await runBin(
    ['import', sample, ...mapping, '--sandbox-clock', '2026-11-20T12:00:00Z', ...files],
    {},
    {
      cwd: folder,
    },
  );
  expect(imported.exitCode, imported.stderr).toBeLessThan(2);
  const store = `${journal}.review.sqlite`;
  await writeFile(store, notes);
  const run = await runBin(['review', journal, ...mapping], {}, { cwd: folder });
  expect(run.exitCode, run.stderr).toBe(2);
  expect(run.stderr).toContain(`JOURNAL_NOT_A_JOURNAL: ${store}: expected a review's store (SQLite)`);
  expect(await readFile(store, 'utf8')).toBe(notes);
});
