import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/import/journal/journal.js';

/**
 * The sending phase's group commit (src/import/journal/group-commit.ts): the claims of one turn of
 * the event loop share one commit; a step that must precede a request is durable when its promise
 * resolves; an outcome recorded after a request is committed at the end of the turn.
 */

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function journalWithClaims(file: string, count: number): Journal {
  const journal = new Journal(file);
  for (let index = 0; index < count; index++)
    journal.staging.insertClaim({
      claimKey: `k${index}`,
      claimId: `CLM-${index}`,
      firstIdx: index,
      firstLine: index + 2,
      sharedJson: '{}',
    });
  return journal;
}

function journalFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'group-commit-'));
  directories.push(directory);
  return join(directory, 'journal.sqlite');
}

describe('group commit', () => {
  it('gives the creates begun in one turn one commit, durable when their promises resolve', async () => {
    const file = journalFile();
    const journal = journalWithClaims(file, 3);
    const begun = [0, 1, 2].map(async (index) => journal.beginCreate(`k${index}`, `CLM-${index}`));
    // All three wrote into the one open transaction; none is committed yet.
    expect(journal.database.inTransaction).toBe(true);
    await Promise.all(begun);
    expect(journal.database.inTransaction).toBe(false);
    journal.database.close();
    // Reopened without the journal's own close (which would commit): the steps were on disk already.
    const reopened = new Journal(file);
    expect([0, 1, 2].map((index) => reopened.claim(`k${index}`)?.step)).toEqual([
      'submitting',
      'submitting',
      'submitting',
    ]);
    expect([0, 1, 2].map((index) => reopened.wasSent(`CLM-${index}`))).toEqual([true, true, true]);
    reopened.close();
  });

  it('commits an outcome recorded after a request at the end of the turn, and close commits what is left', async () => {
    const file = journalFile();
    const journal = journalWithClaims(file, 2);
    journal.recordStep('k0', { step: 'done', httpStatus: 201, attempts: 1 });
    expect(journal.database.inTransaction).toBe(true);
    // Read back on the same connection before the commit: the journal sees its own writes.
    expect(journal.claim('k0')).toMatchObject({ step: 'done', attempts: 1 });
    await nextTurn();
    expect(journal.database.inTransaction).toBe(false);
    journal.recordStep('k1', { step: 'done', httpStatus: 201 });
    journal.close();
    const reopened = new Journal(file);
    expect([reopened.claim('k0')?.step, reopened.claim('k1')?.step]).toEqual(['done', 'done']);
    reopened.close();
  });

  it('undoes only the failing write of a group; the others of the turn are committed', async () => {
    const file = journalFile();
    const journal = journalWithClaims(file, 2);
    const begun = journal.beginCreate('k0', 'CLM-0');
    // attempts = attempts + NULL breaks the NOT NULL rule: the write throws where it is made.
    expect(() => {
      journal.recordStep('k1', { step: 'done', httpStatus: 201, attempts: Number.NaN, rows: [] });
    }).toThrow();
    expect(journal.claim('k1')).toMatchObject({ step: 'staged', attempts: 0 });
    await begun;
    journal.database.close();
    const reopened = new Journal(file);
    expect([reopened.claim('k0')?.step, reopened.claim('k1')?.step]).toEqual(['submitting', 'staged']);
    reopened.close();
  });
});
