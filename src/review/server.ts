import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { hintFor } from '../report/hints.js';
import { fieldColumns } from '../mapping/source-columns.js';
import { checkRowWithEvidence } from './check-row.js';
import { claimConflicts } from './claim-conflicts.js';
import type { ReviewJob, ReviewRow } from './job.js';
import { reviewPage } from './page.js';
import { saveFixes } from './save-fixes.js';
import { secure, tokenCookie } from './security.js';
import type { ReviewStore } from './store.js';
import type { FixSender } from './send-fixes.js';

export interface ReviewServerOptions {
  readonly job: ReviewJob;
  readonly store: ReviewStore;
  /** Default 127.0.0.1; another host only when asked (the CLI warns). */
  readonly host?: string | undefined;
  /** Default 0: any free port. */
  readonly port?: number | undefined;
  /** Where the rows' evidence paths point (the import's --evidence-dir); a path outside it is refused. */
  readonly evidenceDir: string;
  /** The fix file's format: a workbook when the job's results were one. */
  readonly fixFormat?: 'csv' | 'xlsx' | undefined;
  /** With `--send`: feeds the fixes back from the page (send-fixes.ts); without, sending is off. */
  readonly sender?: FixSender | undefined;
}

export interface ReviewServer {
  /** The address to open, token included. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  close(): Promise<void>;
}

const pageSize = 50;

/**
 * `bulk-disputes review` (issue 23), on fastify: a small, well-kept framework with hooks for the
 * checks every request passes (security.ts) and JSON schemas for the bodies. The page is
 * server-rendered HTML with one small script, no build step and nothing from a CDN.
 */
export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const { job, store } = options;
  const token = randomBytes(24).toString('base64url');
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(cookie);
  let origins: string[] = [];
  secure(app, { token, origins: () => origins });
  const byLine = new Map(job.rows.map((row) => [row.line, row]));
  const columnsOf = fieldColumns(job.mapping);
  const edits = store.edits();

  const siblingsOf = (row: ReviewRow) => (row.claimKey === '' ? [] : job.rows.filter((other) => other.claimKey === row.claimKey && other.line !== row.line));
  const cellsOf = (row: ReviewRow) => edits.get(row.line) ?? row.cells;
  /** The import's checks, and the row's agreement with the other rows of its claim. */
  const check = async (row: ReviewRow, cells: Readonly<Record<string, string>>) => {
    const checked = await checkRowWithEvidence(cells, job.mapping, job.sourceColumns, options.evidenceDir);
    const conflicts = claimConflicts({ line: row.line, cells }, siblingsOf(row).map((other) => ({ line: other.line, cells: cellsOf(other) })), job.mapping);
    return conflicts.length === 0 ? checked : { ...checked, ok: false, problems: [...checked.problems, ...conflicts] };
  };
  const view = async (row: ReviewRow) => {
    const cells = cellsOf(row);
    return {
      line: row.line,
      claimKey: row.claimKey,
      claimId: row.claimId,
      outcome: row.outcome,
      errorCode: row.errorCode,
      errorMessage: row.errorMessage,
      errorField: row.errorField,
      errorColumns: columnsOf[row.errorField] ?? (row.errorField.startsWith('evidence.') ? [row.errorField.slice('evidence.'.length)] : []),
      hint: row.errorCode === '' ? '' : hintFor(row.errorCode),
      cells,
      edited: edits.has(row.line),
      check: edits.has(row.line) || siblingsOf(row).some((other) => edits.has(other.line)) ? await check(row, cells) : undefined,
    };
  };

  app.get('/', async (request, reply) => {
    // The token leaves the address bar for a cookie this page alone sends back.
    if (typeof (request.query as { token?: unknown }).token === 'string') {
      return reply.setCookie(tokenCookie, token, { httpOnly: true, sameSite: 'strict', path: '/' }).redirect('/');
    }
    return reply.type('text/html; charset=utf-8').header('content-security-policy', "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'").send(reviewPage(job));
  });

  app.get('/api/overview', async () => {
    const byCode = new Map<string, number>();
    for (const row of job.rows) byCode.set(row.errorCode, (byCode.get(row.errorCode) ?? 0) + 1);
    return {
      journal: job.journal,
      service: job.service,
      rows: job.totalRows,
      outcomes: job.outcomes,
      toFix: job.rows.length,
      edited: edits.size,
      codes: [...byCode].sort((left, right) => right[1] - left[1]).map(([code, count]) => ({ code, count, hint: hintFor(code) })),
      columns: job.sourceColumns,
    };
  });

  app.get('/api/rows', async (request) => {
    const query = request.query as { code?: string; q?: string; page?: string };
    const text = (query.q ?? '').toLowerCase();
    const matching = job.rows.filter(
      (row) => (query.code === undefined || query.code === '' || row.errorCode === query.code) && (text === '' || Object.values(edits.get(row.line) ?? row.cells).some((cell) => cell.toLowerCase().includes(text)) || row.errorMessage.toLowerCase().includes(text)),
    );
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    return { total: matching.length, page, pageSize, rows: await Promise.all(matching.slice((page - 1) * pageSize, page * pageSize).map(view)) };
  });

  const cellsBody = { type: 'object', required: ['cells'], properties: { cells: { type: 'object', additionalProperties: { type: 'string' } } } } as const;
  const rowOf = (line: string) => byLine.get(Number(line));

  app.post('/api/rows/:line/check', { schema: { body: cellsBody } }, async (request, reply) => {
    const row = rowOf((request.params as { line: string }).line);
    if (row === undefined) return reply.code(404).send({ message: 'no row to fix at that line' });
    return check(row, { ...row.cells, ...(request.body as { cells: Record<string, string> }).cells });
  });

  app.put('/api/rows/:line', { schema: { body: cellsBody } }, async (request, reply) => {
    const row = rowOf((request.params as { line: string }).line);
    if (row === undefined) return reply.code(404).send({ message: 'no row to fix at that line' });
    const cells = { ...row.cells, ...(request.body as { cells: Record<string, string> }).cells };
    store.save(row.line, cells);
    edits.set(row.line, cells);
    // The other rows of the claim are checked again: a conflict shows on both.
    return { ...(await view(row)), siblings: await Promise.all(siblingsOf(row).map(async (other) => ({ line: other.line, check: await check(other, cellsOf(other)) }))) };
  });

  app.delete('/api/rows/:line', async (request, reply) => {
    const row = rowOf((request.params as { line: string }).line);
    if (row === undefined) return reply.code(404).send({ message: 'no row to fix at that line' });
    store.discard(row.line);
    edits.delete(row.line);
    return view(row);
  });

  app.post('/api/save', async (_request, reply) => {
    if (edits.size === 0) return reply.code(409).send({ message: 'nothing to save: no row edited yet' });
    return saveFixes(job, edits, options.fixFormat ?? 'csv');
  });

  app.post('/api/send', async (_request, reply) => {
    if (options.sender === undefined) return reply.code(404).send({ message: 'sending is off: start review with --send (and the service set as for import) to send from the page' });
    if (edits.size === 0) return reply.code(409).send({ message: 'nothing to send: no row edited yet' });
    if (!options.sender.start(edits)) return reply.code(409).send({ message: 'a send is running already' });
    return reply.code(202).send(options.sender.state());
  });

  app.get('/api/send', async (_request, reply) => {
    if (options.sender === undefined) return reply.code(404).send({ message: 'sending is off: start review with --send' });
    return options.sender.state();
  });

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  origins = address.address === '127.0.0.1' ? [origin, `http://localhost:${address.port}`] : [origin];
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    close: async () => app.close(),
  };
}
