import { copyFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { JournalBusyError } from '../../src/journal/open.js';
import { openReviewJob } from '../../src/review/job.js';
import { WithdrawJournal } from '../../src/job-files/withdraw/journal.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, duplicateChargeRow, fraudRow, genericMapping, makeWorkspace, runCli } from '../import/e2e-fixtures.js';
import {
  byOutcome,
  call,
  serveReview,
  type ReadOnlyOverview as Overview,
  type RowsPage as Page,
} from './review-http.js';

/**
 * `review` reads a withdraw journal like any other job's. A real night imported into a
 * sandbox server, part of it withdrawn with `--scope case` from a plain list of case ids (one the
 * service never held: `not_found`; one whose withdrawal the service answers 503 to: `failed`),
 * then the journal shown over real HTTP: counted by outcome, every case read-only, the lines to
 * look at with what the service said, and the command that runs the withdraw again, run for real.
 */

/** A door on a loopback port 0 in front of the sandbox: 503 (Retry-After 0) to what `refuse` names, everything else passed through. */
async function startDoor(target: string, refuse: (method: string, path: string) => boolean): Promise<string> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    if (refuse(incoming.method ?? '', (incoming.url ?? '').split('?')[0] ?? '')) {
      incoming.resume();
      outgoing
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' })
        .end(JSON.stringify({ message: 'test door: unavailable' }));
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forward.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('bulk-disputes review: a withdraw job', () => {
  it(
    'counts its cases by outcome, lists them read-only, shows the not_found and failed lines with what was said, and gives the command that settles them',
    { timeout: 90_000 },
    async () => {
      const { sandbox, client } = await startTestSandbox();
      let refusing = true;
      const door = await startDoor(
        sandbox.url,
        (method, path) => refusing && method === 'POST' && path === '/v2/issuer/cases/WIN-T1/withdraw',
      );
      const env = { CLAIMS_API_KEY: sandboxKey };
      const workspace = await makeWorkspace();
      // GOOD, WIN (two cases) and LATE filed; DUP created but not filed (no receipt).
      const input = await workspace.write(
        'night.csv',
        csvOf([
          fraudRow('GOOD', 'T1'),
          duplicateChargeRow('DUP', 'T1', ''),
          fraudRow('WIN', 'T1'),
          fraudRow('WIN', 'T2'),
          fraudRow('LATE', 'T1'),
        ]),
      );
      const imported = await runCli(
        [
          'import',
          input,
          '--mapping',
          genericMapping,
          '--evidence-dir',
          workspace.evidenceDir,
          '--base-url',
          door,
          '--journal',
          join(workspace.dir, 'night.journal.sqlite'),
          '--results',
          join(workspace.dir, 'night.results.csv'),
          '--log-level',
          'silent',
        ],
        env,
      );
      expect(imported.exitCode, imported.stderr).toBe(1);

      // A list from another system: three of the night's cases and one the service never held.
      const list = await workspace.write('refunded.csv', 'case_id\nGOOD-T1\nDUP-T1\nWIN-T1\nNOPE-T9\n');
      const journal = join(workspace.dir, 'refunded.withdraw.journal.sqlite');
      const withdraw = (results: string) => [
        '--journal',
        journal,
        '--results',
        join(workspace.dir, results),
        '--log-level',
        'silent',
      ];
      const first = await runCli(
        ['withdraw', list, '--scope', 'case', '--base-url', door, ...withdraw('refunded.withdraw.results.csv')],
        env,
      );
      expect(first.exitCode, first.stderr).toBe(1);
      expect(first.stderr).toContain('4 cases of 3 claims = 2 withdrawn + 1 not_found + 1 failed');

      const job = await openReviewJob([journal], undefined);
      expect(job.kind).toBe('withdraw');
      const server = await serveReview(job, workspace.dir);
      const overview = (await call<Overview>(server, 'GET', '/api/overview')).body;
      expect(overview.kind).toBe('withdraw');
      expect([overview.rows, overview.claims, overview.toFix]).toEqual([4, 3, 1]);
      expect(byOutcome(overview)).toEqual({ withdrawn: 2, not_found: 1, failed: 1 });
      expect(overview.errors.find((error) => error.code === 'not_found')?.count).toBe(1);
      expect(overview.retry).toBe(
        `bulk-disputes withdraw ${list} --journal ${journal} --scope case --base-url ${door}`,
      );
      expect(overview.retryNote).toContain(
        "A withdraw job's cases are what the service said of them: nothing to edit here.",
      );
      expect(overview.retryNote).not.toContain('does not record its sources');

      // Every case, in the list's order, none editable; what each was and became.
      const all = (await call<Page>(server, 'GET', '/api/rows?scope=all')).body;
      expect(
        all.rows.map((row) => [row.caseId, row.outcome, row.cells.status_before, row.cells.status_after, row.editable]),
      ).toEqual([
        ['GOOD-T1', 'withdrawn', 'chargeback_filed', 'lost', false],
        ['DUP-T1', 'withdrawn', 'created', 'closed', false],
        ['WIN-T1', 'failed', 'chargeback_filed', 'chargeback_filed', false],
        ['NOPE-T9', 'not_found', '', '', false],
      ]);
      // The case the service never held: what it said, to look at.
      const notFound = (await call<Page>(server, 'GET', '/api/rows?scope=all&outcome=not_found')).body;
      expect(
        notFound.rows.map((row) => [row.caseId, row.claimId, row.errorCode, row.errorMessage, row.cells.http_status]),
      ).toEqual([
        [
          'NOPE-T9',
          '',
          'not_found',
          'case NOPE-T9: expected at the service, got none (404): nothing to take back',
          '404',
        ],
      ]);
      expect(
        (await call<Page>(server, 'GET', `/api/rows?scope=all&q=${encodeURIComponent('nope')}`)).body.rows.map(
          (row) => row.caseId,
        ),
      ).toEqual(['NOPE-T9']);
      // The rows to look at: the failed one, with the advice to run it again.
      const toFix = (await call<Page>(server, 'GET', '/api/rows')).body;
      expect(toFix.rows.map((row) => [row.caseId, row.outcome, row.editable])).toEqual([['WIN-T1', 'failed', false]]);
      expect(toFix.rows[0]?.errorMessage).toContain('run the same command again');
      // Nothing to edit, save or send.
      expect((await call(server, 'PUT', `/api/rows/${toFix.rows[0]?.line ?? 0}`, { body: { cells: {} } })).status).toBe(
        404,
      );
      expect((await call(server, 'POST', '/api/save')).status).toBe(404);
      expect((await call(server, 'POST', '/api/send')).status).toBe(404);
      expect((await call(server, 'GET', '/')).body).toContain('a withdraw journal: its cases are shown, not edited');

      // The page's command, run as given while the page is still open (the journal is not held):
      // the failed case is withdrawn; nothing else is sent again.
      refusing = false;
      const [program, ...args] = overview.retry.split(' ');
      expect(program).toBe('bulk-disputes');
      const again = await runCli(
        [...args, '--results', join(workspace.dir, 'again.results.csv'), '--log-level', 'silent'],
        env,
      );
      expect(again.exitCode, again.stderr).toBe(1);
      expect(again.stderr).toContain('4 cases of 3 claims = 3 withdrawn + 1 not_found');
      const win = (await client.claims.retrieve('CLM-WIN')).data.cases ?? [];
      expect(win.map((item) => [item.case_id, item.closed_reason ?? null])).toEqual([
        ['WIN-T1', 'withdrawn'],
        ['WIN-T2', null],
      ]);
      const settled = await serveReview(await openReviewJob([journal], undefined), workspace.dir);
      const after = (await call<Overview>(settled, 'GET', '/api/overview')).body;
      expect([byOutcome(after), after.toFix]).toEqual([{ withdrawn: 3, not_found: 1 }, 0]);
    },
  );

  it(
    'a journal made before withdraw recorded its sources says so; one in use by a run is refused; --mapping refused; a SQLite file of no job named by its tables (exit 2)',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const list = await workspace.write('list.csv', 'case_id\nNOPE-T1\n');
      const journal = join(workspace.dir, 'list.withdraw.sandbox.journal.sqlite');
      const sandboxDb = join(workspace.dir, 'sandbox.db');
      // The embedded sandbox: the command names its data file.
      const run = await runCli(
        [
          'withdraw',
          list,
          '--journal',
          journal,
          '--results',
          join(workspace.dir, 'list.results.csv'),
          '--sandbox-db',
          sandboxDb,
          '--log-level',
          'silent',
        ],
        { CLAIMS_API_KEY: sandboxKey },
      );
      expect(run.exitCode, run.stderr).toBe(1);
      expect(await openReviewJob([journal], undefined)).toMatchObject({
        kind: 'withdraw',
        retryCommand: `bulk-disputes withdraw ${list} --journal ${journal} --sandbox-db ${sandboxDb}`,
      });

      const older = join(workspace.dir, 'older.journal.sqlite');
      await copyFile(journal, older);
      const database = new Database(older);
      database.prepare("DELETE FROM meta WHERE key = 'sources'").run();
      database.close();
      const job = await openReviewJob([older], undefined);
      if (job.kind !== 'withdraw') throw new Error(`expected a withdraw job, got ${job.kind}`);
      expect(job.retryCommand).toBe(
        `bulk-disputes withdraw <the same sources> --journal ${older} --sandbox-db ${sandboxDb}`,
      );
      expect(job.retryNote).toContain('This journal does not record its sources: give the ones it ran with.');

      // A run holds its journal exclusively: told, and the run is not disturbed.
      const running = new WithdrawJournal(journal);
      try {
        await expect(openReviewJob([journal], undefined)).rejects.toBeInstanceOf(JournalBusyError);
      } finally {
        running.close();
      }

      const withMapping = await runCli(['review', journal, '--mapping', genericMapping]);
      expect([
        withMapping.exitCode,
        withMapping.stderr.includes(
          "a withdraw job's cases are read from the service, not a file: expected no --mapping",
        ),
      ]).toEqual([2, true]);
      const other = join(workspace.dir, 'other.sqlite');
      const foreign = new Database(other);
      foreign.exec('CREATE TABLE things (id INTEGER)');
      foreign.close();
      const none = await runCli(['review', other]);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toContain(
        `journal ${other}: expected an import, migrate-v1, withdraw or track journal (tables meta, rows and claims; meta and cases; meta and withdraw_lines; or meta, track_rows and track_cases), got a SQLite database with things`,
      );
    },
  );
});
