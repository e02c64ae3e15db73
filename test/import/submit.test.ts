import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClaimBody } from '../../src/import/claim/body.js';
import { submitClaim } from '../../src/import/claim/submit.js';
import { Journal, type RowRecord } from '../../src/import/journal/journal.js';
import { clientFor } from '../helpers/client.js';
import { json, resetAfterReceiving, startScriptedServer } from '../helpers/scripted-server.js';

/**
 * Settle-before-resend (docs/import.md, "No duplicates") against a scripted server: which
 * requests the import sends when a create's outcome is unknown, conflicts, or was begun earlier.
 */

const claimId = 'CLM-1';
const body: ClaimBody = {
  claim_id: claimId,
  card: { last4: '4242', network: 'visa' },
  dispute: { reason: 'fraud' },
  cases: [
    {
      case_id: 'CLM-1-1',
      transaction: { amount: 100, currency: 'USD', date: '2026-03-01T00:00:00.000Z', arn: 'ARN1' },
    },
  ],
};
/** The claim as the service keeps what `body` sent: the shared card inside each case's transaction. */
const heldTransaction = {
  amount: 100,
  currency: 'USD',
  date: '2026-03-01T00:00:00Z',
  arn: 'ARN1',
  card: { last4: '4242', network: 'visa' },
};
const claim = { claim_id: claimId, status: 'open', cases: [{ case_id: 'CLM-1-1', transaction: heldTransaction }] };
/** Another dispute the service holds under the same id: another file's claim whose key met ours. */
const anotherDispute = {
  claim_id: claimId,
  status: 'filed',
  cases: [
    {
      case_id: 'CLM-1-1',
      transaction: { ...heldTransaction, amount: 2500, arn: 'ARN9', card: { last4: '9999', network: 'visa' } },
    },
  ],
};
const notFound = json(404, { message: 'no such claim' });
const rows = [{ idx: 0, line: 2, case_id: 'CLM-1-1', reported_case_id: null, outcome: null } as RowRecord];

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function journalWithClaim(): Journal {
  const directory = mkdtempSync(join(tmpdir(), 'submit-'));
  directories.push(directory);
  const journal = new Journal(join(directory, 'journal.sqlite'));
  journal.staging.insertClaim({ claimKey: 'k', claimId, firstIdx: 0, firstLine: 2, sharedJson: '{}' });
  return journal;
}

const sent = (server: { requests: { method: string; url: string }[] }) =>
  server.requests.map((request) => `${request.method} ${request.url}`);

describe('submitClaim', () => {
  it('adopts the claim when the connection broke after sending and a retrieve finds it: one create in all', async () => {
    const server = await startScriptedServer([resetAfterReceiving, json(200, claim)]);
    const journal = journalWithClaim();
    const outcome = await submitClaim(clientFor(server.url), journal, 'k', { ...body }, rows);
    expect(outcome).toEqual({ kind: 'created', caseIds: new Set(['CLM-1-1']), existing: true, attempts: 0 });
    expect(sent(server)).toEqual(['POST /v2/issuer/new_claim', `GET /v2/issuer/claims/${claimId}`]);
    expect(journal.claim('k')).toMatchObject({ step: 'submitting', sent: 1 });
    journal.close();
  });

  it('sends again only after a retrieve says the claim does not exist', async () => {
    const server = await startScriptedServer([resetAfterReceiving, notFound, json(201, claim)]);
    const journal = journalWithClaim();
    const outcome = await submitClaim(clientFor(server.url), journal, 'k', { ...body }, rows);
    expect(outcome.kind).toBe('created');
    expect(sent(server)).toEqual([
      'POST /v2/issuer/new_claim',
      `GET /v2/issuer/claims/${claimId}`,
      'POST /v2/issuer/new_claim',
    ]);
    journal.close();
  });

  it('settles a 409 by retrieving the claim: ours from an earlier run is adopted', async () => {
    const server = await startScriptedServer([json(409, { message: 'claim exists' }), json(200, claim)]);
    const journal = journalWithClaim();
    const outcome = await submitClaim(clientFor(server.url), journal, 'k', { ...body }, rows);
    expect(outcome.kind).toBe('created');
    expect(sent(server)).toEqual(['POST /v2/issuer/new_claim', `GET /v2/issuer/claims/${claimId}`]);
    journal.close();
  });

  it('refuses a 409 whose claim is another dispute under our id: never adopted, nothing sent again', async () => {
    const server = await startScriptedServer([json(409, { message: 'claim exists' }), json(200, anotherDispute)]);
    const journal = journalWithClaim();
    const outcome = await submitClaim(clientFor(server.url), journal, 'k', { ...body }, rows);
    expect(sent(server)).toEqual(['POST /v2/issuer/new_claim', `GET /v2/issuer/claims/${claimId}`]);
    expect(outcome.kind).toBe('rejected');
    if (outcome.kind !== 'rejected') return;
    const problem = outcome.rowProblems.get(0);
    expect(problem).toMatchObject({ code: 'claim_key_taken', field: 'claim.key', httpStatus: 409 });
    expect(problem?.message).toContain('claim CLM-1 at the service is another dispute under this claim key');
    expect(problem?.message).toContain('case.transaction.arn, case.transaction.amount, shared.card.last4');
    expect(problem?.message).toContain('claim.id_prefix');
    // What the other dispute holds is another cardholder's: named by field, never by value.
    for (const theirs of ['ARN9', '2500', '9999']) expect(problem?.message).not.toContain(theirs);
    journal.close();
  });

  it('refuses a claim found after a lost answer when it is another dispute, and adopts ours written as the service normalises it', async () => {
    const theirs = await startScriptedServer([resetAfterReceiving, json(200, anotherDispute)]);
    expect(await submitClaim(clientFor(theirs.url), journalWithClaim(), 'k', { ...body }, rows)).toMatchObject({
      kind: 'rejected',
      claimProblem: { code: 'claim_key_taken' },
    });
    // The same instant in another offset, the currency in lower case, the ARN spaced: still ours.
    const normalised = { ...heldTransaction, date: '2026-03-01T01:00:00+01:00', currency: 'usd', arn: 'ARN 1' };
    const ours = await startScriptedServer([
      resetAfterReceiving,
      json(200, { ...claim, cases: [{ case_id: 'CLM-1-1', transaction: normalised }] }),
    ]);
    expect(await submitClaim(clientFor(ours.url), journalWithClaim(), 'k', { ...body }, rows)).toMatchObject({
      kind: 'created',
      existing: true,
    });
  });

  it('rejects on a 409 when no claim has our id (a case id of ours belongs to another claim)', async () => {
    const server = await startScriptedServer([json(409, { message: 'case CLM-1-1 exists' }), notFound]);
    const journal = journalWithClaim();
    const outcome = await submitClaim(clientFor(server.url), journal, 'k', { ...body }, rows);
    expect(outcome).toMatchObject({
      kind: 'rejected',
      claimProblem: { httpStatus: 409, message: 'case CLM-1-1 exists' },
    });
    journal.close();
  });

  it('puts each validation error on the row its cases.N names', async () => {
    const error = {
      message: 'invalid',
      errors: [{ code: 'parameter_invalid', message: 'bad arn', details: { field: 'cases.1.transaction.arn' } }],
    };
    const server = await startScriptedServer([json(400, error)]);
    const journal = journalWithClaim();
    const twoRows = [{ idx: 4 } as RowRecord, { idx: 7 } as RowRecord];
    const outcome = await submitClaim(clientFor(server.url), journal, 'k', { ...body }, twoRows);
    expect(outcome.kind).toBe('rejected');
    if (outcome.kind !== 'rejected') return;
    expect([...outcome.rowProblems]).toEqual([
      [7, { code: 'parameter_invalid', message: 'bad arn', field: 'case.transaction.arn', httpStatus: 400 }],
    ]);
    journal.close();
  });

  it('gives up, unsent claim intact, when the settle itself cannot reach the service', async () => {
    const server = await startScriptedServer((index) =>
      index === 0 ? resetAfterReceiving : json(503, { message: 'down' }),
    );
    const journal = journalWithClaim();
    const client = clientFor(server.url, { retry: { maxAttempts: 2 } });
    await expect(submitClaim(client, journal, 'k', { ...body }, rows)).rejects.toMatchObject({ status: 503 });
    // Only one create left: the rest were retrieves.
    expect(sent(server).filter((request) => request.startsWith('POST'))).toHaveLength(1);
    expect(journal.claim('k')).toMatchObject({ step: 'submitting', sent: 1 });
    journal.close();
  });
});
