import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCheckpoints } from '../../src/sandbox/store/checkpoints.js';
import { openDatabase } from '../../src/sandbox/store/database.js';

/**
 * The sandbox benchmark's durable anchor, run as a child process by durable-anchor.ts: what a
 * new_claim's durable writes cost with nothing of ours around them.
 *
 *   node durable-anchor-main.js DB_FILE BODY_FILE [per-turn]
 *
 * node:http that, per request, reads the body (never parses it), writes the rows the sandbox
 * writes for a 1-case new_claim (a claim, its case with the body as its document, a
 * `case.created` event) with prepared statements in one transaction, one commit per request,
 * and answers BODY_FILE with 201. The storage is the sandbox's own: its schema (the same tables,
 * UNIQUE keys and AUTOINCREMENT), its pragmas (WAL, synchronous=NORMAL: a commit is in the WAL
 * before the answer, so it survives a kill) and its checkpoint worker; without the worker every
 * 1,000th commit would copy the WAL inline and the anchor would be slower than its storage is.
 *
 * With `per-turn`, the requests of one event-loop turn share one transaction and one commit,
 * answered once it is done: the sandbox's own group commit (SandboxCore), with nothing else of it.
 */

const [dbFile, bodyFile, mode] = process.argv.slice(2);
if (dbFile === undefined || bodyFile === undefined)
  throw new Error(`durable anchor: expected "DB_FILE BODY_FILE", got "${process.argv.slice(2).join(' ')}"`);

const canned = readFileSync(bodyFile);
const database = openDatabase(dbFile);
const checkpoints = startCheckpoints(database, dbFile, {
  onError: (error) => process.stderr.write(`durable anchor: ${String(error)}\n`),
});
const insertClaim = database.prepare(
  'INSERT INTO claims (environment, claim_id, status, created, updated) VALUES (?, ?, ?, ?, ?)',
);
const insertCase = database.prepare(
  'INSERT INTO cases (environment, case_id, claim_id, api_version, status, filed, workflow_state, unavailable, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const insertEvent = database.prepare(
  'INSERT INTO events (environment, event_id, type, case_id, created) VALUES (?, ?, ?, ?, ?)',
);
/** The three inserts of one request. */
const insertRows = (index: number, document: string) => {
  const created = new Date().toISOString();
  const claimId = `CLM-ANCHOR-${index}`;
  const caseId = `CASE-ANCHOR-${index}`;
  insertClaim.run('sandbox', claimId, 'open', created, created);
  insertCase.run('sandbox', caseId, claimId, 2, 'created', 0, null, 0, document);
  // In the order they are made, as the sandbox's generated ids are (SandboxCore.newId).
  insertEvent.run('sandbox', `EVT-ANCHOR-${String(index).padStart(12, '0')}`, 'case.created', caseId, created);
};
/** BEGIN, the three inserts, COMMIT: one transaction and one commit per request. */
const writeClaim = database.transaction(insertRows);
/** Per turn: every waiting request's inserts in one transaction, one commit. */
const writeClaims = database.transaction((documents: readonly string[]) => {
  for (const document of documents) insertRows(nextIndex++, document);
});

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let nextIndex = 1;
const answer = (response: ServerResponse) => {
  response.writeHead(201, { 'content-type': 'application/json', 'content-length': canned.length });
  response.end(canned);
};
/** The turn's requests waiting for their commit (`per-turn`). */
let waiting: { document: string; response: ServerResponse }[] = [];
const commitTurn = () => {
  const turn = waiting;
  waiting = [];
  writeClaims(turn.map((item) => item.document));
  checkpoints.afterCommit();
  for (const item of turn) answer(item.response);
};
const server = createServer((request, response) => {
  readBody(request).then(
    (document) => {
      if (mode === 'per-turn') {
        if (waiting.length === 0) setImmediate(commitTurn);
        waiting.push({ document, response });
        return;
      }
      writeClaim(nextIndex++, document);
      checkpoints.afterCommit();
      answer(response);
    },
    () => response.destroy(),
  );
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`durable anchor listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void checkpoints.close().then(() => {
    database.close();
  });
});
