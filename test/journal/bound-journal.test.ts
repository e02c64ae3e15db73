import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClaimsClient } from '../../src/api/client/index.js';
import { identityOf, type ServiceTarget } from '../../src/api/service-target.js';
import { TrackJournal } from '../../src/job-files/track/journal.js';
import { WithdrawJournal } from '../../src/job-files/withdraw/journal.js';
import { withBoundJournal, type JournalJob } from '../../src/journal/bound-journal.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

/**
 * A job's journal opened and bound to its service, its client made on demand, everything closed
 * at the end (src/journal/bound-journal.ts): with real withdraw and track journals on disk and a
 * real sandbox on loopback.
 */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(async (dir) => rm(dir, { recursive: true, force: true })));
});

async function journalFile(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bound-journal-'));
  dirs.push(dir);
  return join(dir, name);
}

function jobOn(
  service: ServiceTarget,
  file: string,
  options: { restart?: boolean; lines?: string[] } = {},
): JournalJob & { doneCalls: number } {
  const lines = options.lines ?? [];
  const job = {
    files: { journalFile: file },
    service,
    identity: identityOf(service),
    restart: options.restart === true,
    logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    pacing: { concurrency: 2, maxRps: undefined },
    doneCalls: 0,
    progress: {
      done: () => {
        job.doneCalls++;
      },
    },
  };
  return job;
}

/** The journal was closed: this process can take its lock again (a journal open elsewhere is JOURNAL_BUSY). */
function reopenAndClose(file: string): void {
  new WithdrawJournal(file).close();
}

describe('a job run on its journal bound to its service', () => {
  it('records the service on the first run, makes one client when asked, and closes all at the end', async () => {
    const { sandbox } = await startTestSandbox();
    const file = await journalFile('w.journal.sqlite');
    const service = { baseUrl: sandbox.url, apiKey: sandboxKey };
    const job = jobOn(service, file);

    let clients: ClaimsClient[] = [];
    const listed = await withBoundJournal(WithdrawJournal, job, async (journal, connect) => {
      expect(journal.meta.get('service')).toEqual(identityOf(service));
      clients = [connect(), connect()];
      return (await connect().cases.list({ limit: 1 })).status;
    });

    expect(listed).toBe(200);
    expect(clients[0]).toBe(clients[1]);
    expect(job.doneCalls).toBe(1);
    reopenAndClose(file);
  });

  it('refuses a journal that holds another service’s data before running anything, and closes it', async () => {
    const file = await journalFile('w.journal.sqlite');
    const first = { baseUrl: 'http://127.0.0.1:9', apiKey: sandboxKey };
    await withBoundJournal(WithdrawJournal, jobOn(first, file), async (journal) => {
      journal.markSent('clm_1', 'withdraw_claim');
      return Promise.resolve();
    });
    const other = { baseUrl: 'http://127.0.0.2:9', apiKey: sandboxKey };
    let ran = false;

    const refused = withBoundJournal(WithdrawJournal, jobOn(other, file), async () => {
      ran = true;
      return Promise.resolve();
    });

    await expect(refused).rejects.toMatchObject({
      code: 'SERVICE_MISMATCH',
      message: expect.stringContaining(`journal ${file}: expected a journal made against`) as string,
    });
    expect(ran).toBe(false);
    reopenAndClose(file);
  });

  it('with --restart, a withdraw journal forgets its job and what it sent to the other service', async () => {
    const file = await journalFile('w.journal.sqlite');
    const first = { baseUrl: 'http://127.0.0.1:9', apiKey: sandboxKey };
    await withBoundJournal(WithdrawJournal, jobOn(first, file), async (journal) => {
      journal.stage([{ claimId: 'clm_1', claimKey: 'K1', caseIds: ['cas_1'] }]);
      journal.meta.set('staged', true);
      journal.markSent('clm_1', 'withdraw_claim');
      return Promise.resolve();
    });
    const other = { baseUrl: 'http://127.0.0.2:9', apiKey: sandboxKey };
    const lines: string[] = [];

    const after = await withBoundJournal(
      WithdrawJournal,
      jobOn(other, file, { restart: true, lines }),
      async (journal) =>
        Promise.resolve({
          sent: journal.wasSent('clm_1', 'withdraw_claim'),
          targets: journal.targetCount(),
          staged: journal.meta.get('staged'),
          service: journal.meta.get('service'),
        }),
    );

    expect(after).toEqual({ sent: false, targets: 0, staged: undefined, service: identityOf(other) });
    expect(lines.join('')).toContain('--restart: journal');
  });

  it('with --restart, a track journal forgets its rows, its sources and its place in the events', async () => {
    const file = await journalFile('t.journal.sqlite');
    const first = { baseUrl: 'http://127.0.0.1:9', apiKey: sandboxKey };
    await withBoundJournal(TrackJournal, jobOn(first, file), async (journal) => {
      journal.addCase('cas_1');
      journal.saveState('cas_1', '{"status":"won"}', 1, { final: true, at: '2026-01-01T00:00:00Z' });
      journal.meta.set('events_cursor', 'evt_9');
      journal.meta.set('sources', { format: '1', all: true, column: null, sources: [] });
      return Promise.resolve();
    });
    const other = { baseUrl: 'http://127.0.0.2:9', apiKey: sandboxKey };

    const after = await withBoundJournal(TrackJournal, jobOn(other, file, { restart: true }), async (journal) =>
      Promise.resolve({
        cases: journal.caseCount(),
        cursor: journal.meta.get('events_cursor'),
        sources: journal.meta.get('sources'),
      }),
    );

    expect(after).toEqual({ cases: 0, cursor: undefined, sources: undefined });
  });

  it('a track journal that read nothing from its service moves to another without --restart', async () => {
    const file = await journalFile('t.journal.sqlite');
    const first = { baseUrl: 'http://127.0.0.1:9', apiKey: sandboxKey };
    await withBoundJournal(TrackJournal, jobOn(first, file), async (journal) => {
      journal.addCase('cas_1');
      return Promise.resolve();
    });
    const other = { baseUrl: 'http://127.0.0.2:9', apiKey: sandboxKey };

    const cases = await withBoundJournal(TrackJournal, jobOn(other, file), async (journal) =>
      Promise.resolve(journal.caseCount()),
    );

    expect(cases).toBe(1);
  });
});
