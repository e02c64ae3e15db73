import { Script } from 'node:vm';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import { ReviewJobError } from '../../src/review/job-types.js';
import { startReviewServer, type ReviewServer } from '../../src/review/server.js';
import { ReviewStore } from '../../src/review/store.js';
import { runCli } from '../helpers/cli.js';
import { readResults } from '../import/e2e-fixtures.js';
import { importSampleWithBadAmount, temporaryFolder } from '../report/fixture.js';
import { call, serveReview, sessionOf } from './review-http.js';

/** The review server's routes over real HTTP, its guards, and a fix fed back. */

const root = fileURLToPath(new URL('../..', import.meta.url));
const mapping = join(root, 'mappings/generic.yaml');
const evidenceDir = join(root, 'samples/evidence');

async function reviewOf(folder: string): Promise<{ server: ReviewServer; journal: string }> {
  const { journal, imported } = await importSampleWithBadAmount(folder, '84x.99');
  expect(imported.exitCode, imported.stderr).toBe(1);
  return { server: await serveReview(await openReviewJob([journal], mapping), evidenceDir), journal };
}

describe('bulk-disputes review: the server', () => {
  it(
    'refuses a request without the token (401), with a session it does not know (401), with another token (403), for another Host (421), and a write from another origin or none (403)',
    { timeout: 60_000 },
    async () => {
      const { server } = await reviewOf(await temporaryFolder());
      const rows = (await call(server, 'GET', '/api/rows')).body as { rows: { line: number }[] };
      const line = rows.rows[0]?.line ?? 0;
      // Every route: the page, the API's reads and writes.
      const routes = [
        ['GET', '/'],
        ['GET', '/api/overview'],
        ['GET', '/api/rows?scope=all'],
        ['GET', '/api/evidence?q=r'],
        ['POST', `/api/rows/${line}/check`],
        ['PUT', `/api/rows/${line}`],
        ['DELETE', `/api/rows/${line}`],
        ['POST', '/api/save'],
        ['POST', '/api/send'],
        ['GET', '/api/send'],
      ] as const;
      for (const [method, path] of routes) {
        const body = method === 'POST' || method === 'PUT' ? { cells: {} } : undefined;
        const bare = await request(`${server.origin}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json', origin: server.origin },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        expect([method, path, bare.statusCode]).toEqual([method, path, 401]);
        await bare.body.dump();
        expect([
          method,
          path,
          (await call(server, method, path, { body, headers: { cookie: `${server.sessionCookie}=guess` } })).status,
        ]).toEqual([method, path, 401]);
        expect([
          method,
          path,
          (await call(server, method, path, { body, headers: { authorization: 'Bearer guess' } })).status,
        ]).toEqual([method, path, 403]);
        expect([
          method,
          path,
          (await call(server, method, path, { body, headers: { host: 'evil.example:80' } })).status,
        ]).toEqual([method, path, 421]);
      }
      expect(
        (
          await call(server, 'PUT', `/api/rows/${line}`, {
            body: { cells: {} },
            headers: { origin: 'http://evil.example' },
          })
        ).status,
      ).toBe(403);
      const noOrigin = await request(`${server.origin}/api/save`, {
        method: 'POST',
        headers: { cookie: await sessionOf(server) },
      });
      expect(noOrigin.statusCode).toBe(403);
      await noOrigin.body.dump();
      // No CORS: an answer another origin could read.
      expect(
        (await call(server, 'GET', '/api/overview', { headers: { origin: 'http://evil.example' } })).headers[
          'access-control-allow-origin'
        ],
      ).toBeUndefined();
    },
  );

  it(
    'the printed address sets the cookie and leaves the address bar; the page and the overview load with it',
    { timeout: 60_000 },
    async () => {
      const { server } = await reviewOf(await temporaryFolder());
      const first = await request(server.url);
      expect(first.statusCode).toBe(200);
      expect(await first.body.text()).toContain('<meta http-equiv="refresh" content="0;url=/">');
      expect(String(first.headers['set-cookie'])).toMatch(
        new RegExp(`^${server.sessionCookie}=[\\w-]{43}; Path=/; HttpOnly; SameSite=Strict$`),
      );
      expect(String(first.headers['set-cookie'])).not.toContain(server.token);
      const page = await call(server, 'GET', '/');
      expect(page.status).toBe(200);
      expect(typeof page.body === 'string' ? page.body : '').toContain('<label for="code">error code</label>');
      // The page's one script parses (a syntax error would leave a blank page).
      const script = await call<string>(server, 'GET', '/review.js');
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(() => new Script(script.body)).not.toThrow();
      // Sending is off unless review was started with --send.
      expect((await call(server, 'POST', '/api/send')).status).toBe(404);
      const overview = await call(server, 'GET', '/api/overview');
      // The bad row, and the other row of its claim, held back with it.
      expect(overview.body).toMatchObject({
        rows: 10,
        toFix: 2,
        codes: [
          { code: 'amount_format', count: 1 },
          { code: 'claim_incomplete', count: 1 },
        ],
      });
    },
  );

  it(
    "lists the rows to fix with the cell behind the error; an edit is checked with the import's code, kept across restarts, saved and fed back: the claim filed",
    { timeout: 90_000 },
    async () => {
      const folder = await temporaryFolder();
      const { server, journal } = await reviewOf(folder);
      const listed = (await call(server, 'GET', '/api/rows?code=amount_format')).body as {
        total: number;
        rows: { line: number; errorColumns: string[]; hint: string; cells: Record<string, string> }[];
      };
      expect(listed.total).toBe(1);
      const bad = listed.rows.find((row) => row.cells.disputed_amount === '84x.99');
      if (bad === undefined) throw new Error('test: the row with the bad amount');
      expect(bad.errorColumns).toEqual(['disputed_amount']);
      expect(bad.hint).not.toBe('');

      const stillBad = (
        await call(server, 'POST', `/api/rows/${bad.line}/check`, { body: { cells: { disputed_amount: '84y' } } })
      ).body as { ok: boolean; problems: { code: string; columns: string[] }[] };
      expect(stillBad).toMatchObject({
        ok: false,
        problems: [{ code: 'amount_format', columns: ['disputed_amount'] }],
      });
      const fixed = (
        await call(server, 'PUT', `/api/rows/${bad.line}`, { body: { cells: { disputed_amount: '849.99' } } })
      ).body as { edited: boolean; check: { ok: boolean; mapped: Record<string, string> } };
      expect(fixed).toMatchObject({ edited: true, check: { ok: true } });
      expect(fixed.check.mapped.disputed_amount).toBe('84999');

      // A second review of the same journal finds the edit again.
      const againJob = await openReviewJob([journal], mapping);
      const againStore = new ReviewStore(ReviewStore.fileFor(journal));
      const again = await startReviewServer({ job: againJob, store: againStore, evidenceDir });
      const reopened = (await call(again, 'GET', '/api/rows?code=amount_format')).body as {
        rows: { line: number; edited: boolean }[];
      };
      expect(reopened.rows.find((row) => row.line === bad.line)?.edited).toBe(true);
      await again.close();
      againStore.close();
      await againJob.close();
      expect((await stat(ReviewStore.fileFor(journal))).mode & 0o777).toBe(0o600);

      const saved = (await call(server, 'POST', '/api/save')).body as { file: string; rows: number; command: string };
      // The edited row and the other row of its claim: a claim goes back whole.
      expect(saved.rows).toBe(2);
      expect((await stat(saved.file)).mode & 0o777).toBe(0o600);
      expect(saved.command).toContain(`--mapping ${mapping}`);
      const fedBack = await runCli([
        'import',
        saved.file,
        '--mapping',
        mapping,
        '--evidence-dir',
        join(root, 'samples/evidence'),
        '--sandbox-db',
        join(folder, 'sandbox.db'),
        '--sandbox-clock',
        '2026-11-20T12:00:00Z',
        '--journal',
        join(folder, 'fix.journal.sqlite'),
        '--results',
        join(folder, 'fix.results.csv'),
        '--log-level',
        'silent',
      ]);
      const { rows } = await readResults(join(folder, 'fix.results.csv'));
      expect(fedBack.exitCode, fedBack.stderr).toBe(0);
      expect(rows.map((row) => row.outcome)).toEqual(['filed', 'filed']);
      expect(rows.map((row) => row.disputed_amount)).toContain('849.99');
    },
  );

  it(
    'checks an evidence path as the import does: a path outside the evidence directory is a problem of its cell, never read',
    { timeout: 60_000 },
    async () => {
      const { server } = await reviewOf(await temporaryFolder());
      const [row] = ((await call(server, 'GET', '/api/rows?code=amount_format')).body as { rows: { line: number }[] })
        .rows;
      const outside = (
        await call(server, 'POST', `/api/rows/${row?.line ?? 0}/check`, {
          body: { cells: { disputed_amount: '849.99', receipt_file: '../../package.json' } },
        })
      ).body;
      expect(outside).toMatchObject({
        ok: false,
        problems: [{ field: 'evidence.receipt_file', code: 'evidence_path_outside', columns: ['receipt_file'] }],
      });
      const missing = (
        await call(server, 'POST', `/api/rows/${row?.line ?? 0}/check`, {
          body: { cells: { disputed_amount: '849.99', receipt_file: 'receipts/none.pdf' } },
        })
      ).body;
      expect(missing).toMatchObject({ ok: false, problems: [{ code: 'evidence_not_found' }] });
      const inside = (
        await call(server, 'POST', `/api/rows/${row?.line ?? 0}/check`, {
          body: { cells: { disputed_amount: '849.99', receipt_file: `receipts/cafe-lumiere-receipt.pdf` } },
        })
      ).body;
      expect(inside).toMatchObject({ ok: true });
    },
  );

  it(
    'shows a conflict between two rows of a claim on both: a shared field that no longer agrees',
    { timeout: 60_000 },
    async () => {
      const { server } = await reviewOf(await temporaryFolder());
      const all = (
        (await call(server, 'GET', '/api/rows')).body as {
          rows: { line: number; claimKey: string; cells: Record<string, string> }[];
        }
      ).rows;
      const bad = all.find((row) => row.cells.disputed_amount === '84x.99');
      const sibling = all.find((row) => row.claimKey === bad?.claimKey && row.line !== bad.line);
      if (bad === undefined || sibling === undefined) throw new Error('test: the claim of two rows');
      const edited = (
        await call(server, 'PUT', `/api/rows/${bad.line}`, {
          body: { cells: { disputed_amount: '849.99', card_last4: '9999' } },
        })
      ).body as {
        check: { ok: boolean; problems: { code: string; message: string; columns: string[] }[] };
        siblings: { line: number; check: { ok: boolean; problems: { code: string; message: string }[] } }[];
      };
      expect(edited.check.ok).toBe(false);
      expect(edited.check.problems.map((problem) => [problem.code, problem.columns])).toEqual([
        ['shared_field_mismatch', ['card_last4']],
      ]);
      expect(edited.check.problems[0]?.message).toContain(
        `line ${sibling.line} of the same claim has "4417", this row "9999"`,
      );
      expect(
        edited.siblings.map((other) => [
          other.line,
          other.check.ok,
          other.check.problems.map((problem) => problem.code),
        ]),
      ).toEqual([[sibling.line, false, ['shared_field_mismatch']]]);
      expect(edited.siblings[0]?.check.problems[0]?.message).toContain(`line ${bad.line} of the same claim`);
      // Agreeing again clears both.
      const agreed = (
        await call(server, 'PUT', `/api/rows/${bad.line}`, {
          body: { cells: { disputed_amount: '849.99', card_last4: '4417' } },
        })
      ).body as { check: { ok: boolean }; siblings: { check: { ok: boolean } }[] };
      expect([agreed.check.ok, agreed.siblings[0]?.check.ok]).toEqual([true, true]);
    },
  );

  it("refuses a mapping other than the job's, and a file that is not a journal", { timeout: 60_000 }, async () => {
    const folder = await temporaryFolder();
    const { journal } = await importSampleWithBadAmount(folder, '84x.99');
    await expect(openReviewJob([journal], join(root, 'mappings/v1-cases.yaml'))).rejects.toBeInstanceOf(ReviewJobError);
    const notJournal = await runCli(['review', join(root, 'package.json'), '--mapping', mapping]);
    expect(notJournal.exitCode).toBe(2);
  });
});
