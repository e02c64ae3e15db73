import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { hintFor } from '../job-files/hints.js';
import { evidenceFiles } from './evidence-files.js';
import type { EvidenceFolder } from '../evidence/folder.js';
import type { ImportReviewJob, ReviewJob } from './job-types.js';
import { reviewPage } from './page.js';
import { RowViews, type RowQuery } from './row-views.js';
import { saveFixes } from './save-fixes.js';
import { pageScript } from './page-script.js';
import { pageStyle } from './page-style.js';
import { sendReviewHeaders } from './response-headers.js';
import { secure, sessionCookieFor } from './security.js';
import { ReviewSessions } from './sessions.js';
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
  /**
   * The import's evidence as its plan resolves it (resolveEvidence in src/import/evidence-sources.ts):
   * needed for an s3:// evidenceDir or a mapping's evidence_sources, whose cells are then checked by
   * the same remote checker. Default: the folder evidenceDir, every cell a path in it.
   */
  readonly evidence?: EvidenceFolder | undefined;
  /** The fix file's format (default: the input's, a workbook when it was one). */
  readonly fixFormat?: 'csv' | 'xlsx' | undefined;
  /** With `--send`: feeds the fixes back from the page (send-fixes.ts); without, sending is off. */
  readonly sender?: FixSender | undefined;
}

export interface ReviewServer {
  /** The address to open, token included: its first load exchanges the token for a session (security.ts). */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  /** The name of the session cookie the first load sets. */
  readonly sessionCookie: string;
  close(): Promise<void>;
}

/**
 * `bulk-disputes review`, on fastify: a small, well-kept framework with hooks for the checks every
 * request passes (security.ts) and JSON schemas for the bodies. The page is server-rendered HTML
 * with one small script, no build step and nothing from a CDN.
 */
export async function startReviewServer(options: ReviewServerOptions): Promise<ReviewServer> {
  const { job, store } = options;
  const token = randomBytes(24).toString('base64url');
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(cookie);
  let origins: string[] = [];
  let cookieName = '';
  sendReviewHeaders(app);
  secure(app, { token, sessions: new ReviewSessions(), origins: () => origins, cookie: () => cookieName });
  const edits = store.edits();
  const views = new RowViews(job, edits, options.evidence ?? { evidenceDir: options.evidenceDir });
  const hint = (code: string) => job.hints?.[code] ?? hintFor(code);

  // The printed address's token is exchanged for a session before this (security.ts).
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(reviewPage(job)));
  app.get('/review.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(pageScript));
  app.get('/review.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(pageStyle));

  app.get('/api/overview', async () => overview(job, edits, hint));

  app.get('/api/rows', async (request) => views.list(request.query as RowQuery));

  app.get('/api/evidence', async (request) => {
    const { q } = request.query as { q?: unknown };
    return { files: await evidenceFiles(options.evidenceDir, typeof q === 'string' ? q : '') };
  });

  if (job.kind === 'import') addFixRoutes(app, { job, store, edits, views, options });

  addSendRoutes(app, options.sender, edits);

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  origins = address.address === '127.0.0.1' ? [origin, `http://localhost:${address.port}`] : [origin];
  cookieName = sessionCookieFor(address.port);
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    sessionCookie: cookieName,
    close: async () => app.close(),
  };
}

type Edits = Map<number, Record<string, string>>;

interface FixContext {
  readonly job: ImportReviewJob;
  readonly store: ReviewStore;
  readonly edits: Edits;
  readonly views: RowViews;
  readonly options: ReviewServerOptions;
}

/** The page's overview: counts, the errors with their hints, what the job lets the page do. */
function overview(job: ReviewJob, edits: Edits, hint: (code: string) => string | undefined) {
  const { summary } = job;
  const toFix = new Map<string, number>();
  for (const row of job.rows) toFix.set(row.errorCode, (toFix.get(row.errorCode) ?? 0) + 1);
  return {
    kind: job.kind,
    journals: job.journals,
    service: job.service,
    rows: summary.rows,
    claims: summary.claims,
    outcomes: summary.byOutcome.map(([outcome, count]) => ({ outcome, count })),
    errors: summary.topErrors.map((error) => ({ ...error, hint: hint(error.code) })),
    mixedClaims: summary.mixedClaims,
    mixedClaimsTotal: summary.mixedClaimsTotal,
    toFix: job.rows.length,
    edited: edits.size,
    codes: [...toFix]
      .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
      .map(([code, count]) => ({ code, count, hint: hint(code) })),
    fixOutcomes: job.fixOutcomes ?? null,
    columns: job.columns,
    evidence:
      job.kind === 'import'
        ? job.mapping.evidence.map(({ column, category, separator }) => ({
            column,
            category,
            separator: separator ?? '',
          }))
        : [],
    retry: job.kind === 'import' ? undefined : job.retryCommand,
    retryNote: job.kind === 'import' ? undefined : job.retryNote,
    summaryText: job.kind === 'track' ? job.summaryText : undefined,
  };
}

/** The routes that check, save and discard a row's fixes, and write the fix file: an import's only. */
function addFixRoutes(app: FastifyInstance, context: FixContext): void {
  const { job, store, edits, views, options } = context;
  const cellsBody = {
    type: 'object',
    required: ['cells'],
    properties: { cells: { type: 'object', additionalProperties: { type: 'string' } } },
  } as const;
  const notEditable = 'no row to fix at that line';

  app.post('/api/rows/:line/check', { schema: { body: cellsBody } }, async (request, reply) => {
    const row = views.editable((request.params as { line: string }).line);
    if (row === undefined) return reply.code(404).send({ message: notEditable });
    return views.check(job, row, {
      ...row.cells,
      ...store.masked((request.body as { cells: Record<string, string> }).cells),
    });
  });

  app.put('/api/rows/:line', { schema: { body: cellsBody } }, async (request, reply) => {
    const row = views.editable((request.params as { line: string }).line);
    if (row === undefined) return reply.code(404).send({ message: notEditable });
    // A card number the reviewer types is masked here, before it is checked, kept, shown or fed back.
    const cells = { ...row.cells, ...store.masked((request.body as { cells: Record<string, string> }).cells) };
    store.save(row.line, cells);
    edits.set(row.line, cells);
    // The other rows of the claim are checked again: a conflict shows on both.
    return {
      ...(await views.view(row)),
      siblings: await Promise.all(
        views
          .siblingsOf(row)
          .map(async (other) => ({ line: other.line, check: await views.check(job, other, views.cellsOf(other)) })),
      ),
    };
  });

  app.delete('/api/rows/:line', async (request, reply) => {
    const row = views.editable((request.params as { line: string }).line);
    if (row === undefined) return reply.code(404).send({ message: notEditable });
    store.discard(row.line);
    edits.delete(row.line);
    return views.view(row);
  });

  app.post('/api/save', async (_request, reply) => {
    if (edits.size === 0) return reply.code(409).send({ message: 'nothing to save: no row edited yet' });
    return saveFixes(job, edits, options.fixFormat ?? job.inputKind, options.evidenceDir);
  });
}

/** Sending the fixes from the page (`--send`), and its progress. */
function addSendRoutes(app: FastifyInstance, sender: FixSender | undefined, edits: Edits): void {
  app.post('/api/send', async (_request, reply) => {
    if (sender === undefined)
      return reply.code(404).send({
        message: 'sending is off: start review with --send (and the service set as for import) to send from the page',
      });
    if (edits.size === 0) return reply.code(409).send({ message: 'nothing to send: no row edited yet' });
    if (!sender.start(edits)) return reply.code(409).send({ message: 'a send is running already' });
    return reply.code(202).send(sender.state());
  });

  app.get('/api/send', async (_request, reply) => {
    if (sender === undefined) return reply.code(404).send({ message: 'sending is off: start review with --send' });
    return sender.state();
  });
}
