import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { appendFile, copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import { cliBin } from '../helpers/sandbox-process.js';
import {
  csvOf,
  fraudRow,
  genericMapping,
  importArgs,
  makeWorkspace,
  runCli,
  type Workspace,
} from '../import/e2e-fixtures.js';

/**
 * `review JOURNAL` without --mapping. The import records its mapping's absolute
 * path beside the sha256 of its text; review uses that file while it is there and unchanged, and
 * otherwise asks for --mapping saying why: changed since the run (both sha256s), gone, or never
 * recorded (a journal written before the path was).
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A night imported into the embedded sandbox with a copy of the generic mapping in the workspace (one row not filed, to review). */
async function importedNight(workspace: Workspace): Promise<{ mapping: string; journal: string }> {
  const mapping = join(workspace.dir, 'acme.yaml');
  await copyFile(genericMapping, mapping);
  await workspace.write(
    'night.csv',
    csvOf([fraudRow('GOOD', 'T1'), fraudRow('AMOUNT', 'T1', { disputed_amount: '84x.99' })]),
  );
  const run = await runCli([
    ...importArgs(
      workspace,
      join(workspace.dir, 'night.csv'),
      ['--sandbox-db', join(workspace.dir, 'sandbox.db'), '--log-level', 'silent'],
      mapping,
    ),
  ]);
  expect(run.exitCode, run.stderr).toBe(1);
  return { mapping, journal: workspace.journal };
}

describe("review finds the import's mapping through its journal", () => {
  it(
    "the journal records the mapping's absolute path; review JOURNAL alone serves the page with it",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { mapping, journal } = await importedNight(workspace);
      const database = new Database(journal, { readonly: true });
      const meta = database.prepare("SELECT value FROM meta WHERE key = 'mapping_file'").pluck().get();
      database.close();
      expect(meta).toBe(mapping);

      const job = await openReviewJob([journal], undefined);
      onTestFinished(async () => job.close());
      expect(job.kind === 'import' ? job.mappingFile : undefined).toBe(mapping);

      // The command itself, as a person runs it: no --mapping, the page's address on stdout.
      const child = spawn(process.execPath, [cliBin, 'review', journal, '--port', '0', '--log-level', 'warn'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      onTestFinished(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      await vi.waitFor(
        () => {
          expect(output).toMatch(
            /^review: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+ {2}\(1 rows to fix of 2; stop with Ctrl-C\)$/m,
          );
        },
        { timeout: 20_000, interval: 50 },
      );
      child.kill('SIGTERM');
      const [exitCode] = (await once(child, 'exit')) as [number | null];
      expect(exitCode, output).toBe(0);
    },
  );

  it(
    'a recorded mapping changed since the run, or gone, or never recorded: --mapping asked for, saying why (exit 2); --mapping still works',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const { mapping, journal } = await importedNight(workspace);
      const before = sha256(await readFile(mapping, 'utf8'));

      await appendFile(mapping, '# tidied after the run\n');
      const after = sha256(await readFile(mapping, 'utf8'));
      const changed = await runCli(['review', journal]);
      expect(changed.exitCode).toBe(2);
      expect(changed.stderr).toContain(
        `expected --mapping FILE, since the mapping recorded at ${mapping} has changed since the run (sha256 ${before} then, ${after} now)`,
      );

      await rm(mapping);
      const gone = await runCli(['review', journal]);
      expect(gone.exitCode).toBe(2);
      expect(gone.stderr).toContain(`expected --mapping FILE, since the mapping recorded at ${mapping} is gone`);

      // Given, the same text elsewhere is the job's mapping.
      const given = await openReviewJob([journal], genericMapping);
      expect(given.kind === 'import' ? given.mappingFile : undefined).toBe(genericMapping);
      await given.close();

      // A journal written before the path was recorded.
      const database = new Database(journal);
      database.prepare("DELETE FROM meta WHERE key = 'mapping_file'").run();
      database.close();
      const older = await runCli(['review', journal]);
      expect(older.exitCode).toBe(2);
      expect(older.stderr).toContain(
        `expected --mapping FILE, since the journal records only its sha256 (${before}), not where it is`,
      );
    },
  );
});
