import { describe, expect, it } from 'vitest';
import { SandboxCore } from '../../src/sandbox/core.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { fraudClaim, startTestSandbox } from '../helpers/sandbox.js';

/**
 * new_claim writes without a savepoint (SandboxCore.insertOnly): a refusal half-way through takes
 * back what the request had inserted, and when that cannot be done the whole group of the turn is
 * rolled back, so nothing of it is acknowledged.
 */

interface EventList {
  data: { type: string; data: { case_id: string } }[];
}

describe('new_claim refused half-way', () => {
  it('a taken third case_id → 409, and neither the claim, its first cases nor their events are kept', async () => {
    const t = await startTestSandbox();
    expect((await t.request('POST', '/v2/issuer/new_claim', fraudClaim('io_base'))).status).toBe(201);
    const body = fraudClaim('io_half', 3);
    const cases = body.cases.map((item, index) => (index === 2 ? { ...item, case_id: 'io_base-case-1' } : item));
    const refused = await t.request('POST', '/v2/issuer/new_claim', { ...body, cases });
    expect(refused).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining('io_base-case-1') as unknown },
    });
    expect((await t.request('GET', '/v2/issuer/claims/io_half')).status).toBe(404);
    for (const caseId of ['io_half-case-1', 'io_half-case-2'])
      expect((await t.request('GET', `/v2/issuer/cases/${caseId}`)).status).toBe(404);
    const events = (await t.request('GET', '/v2/issuer/events')).body as EventList;
    expect(events.data.map((event) => event.data.case_id)).toEqual(['io_base-case-1']);
    // The ids it had taken are free again.
    expect((await t.request('POST', '/v2/issuer/new_claim', fraudClaim('io_half', 2))).status).toBe(201);
  });
});

describe('SandboxCore.insertOnly', () => {
  const insertClaim = (core: SandboxCore, claimId: string) =>
    core.database
      .prepare(
        "INSERT INTO claims (environment, claim_id, status, created, updated) VALUES ('sandbox', ?, 'open', '', '')",
      )
      .run(claimId);
  const claimIds = (core: SandboxCore) =>
    core.database.prepare('SELECT claim_id FROM claims ORDER BY seq').pluck().all();

  it('rolls back the whole group when a unit cannot be taken back, and the next group commits', async () => {
    const errors: unknown[] = [];
    const core = new SandboxCore({
      database: openDatabase(':memory:'),
      onBackgroundError: (error) => errors.push(error),
    });
    try {
      core.insertOnly(
        () => insertClaim(core, 'io_sibling'),
        () => undefined,
      );
      const refusal = new Error('refused after its insert');
      expect(() =>
        core.insertOnly(
          () => {
            insertClaim(core, 'io_partial');
            throw refusal;
          },
          () => {
            throw new Error('undo failed');
          },
        ),
      ).toThrow(refusal);
      await expect(core.committed()).rejects.toThrow('could not be taken back');
      expect(errors).toHaveLength(1);
      expect(claimIds(core)).toEqual([]);
      core.insertOnly(
        () => insertClaim(core, 'io_next'),
        () => undefined,
      );
      await core.committed();
      expect(claimIds(core)).toEqual(['io_next']);
    } finally {
      core.close();
      core.database.close();
    }
  });

  it('keeps the group when the unit is taken back', async () => {
    const core = new SandboxCore({ database: openDatabase(':memory:') });
    try {
      core.insertOnly(
        () => insertClaim(core, 'io_kept'),
        () => undefined,
      );
      expect(() =>
        core.insertOnly(
          () => {
            insertClaim(core, 'io_undone');
            throw new Error('refused');
          },
          () => core.database.prepare("DELETE FROM claims WHERE claim_id = 'io_undone'").run(),
        ),
      ).toThrow('refused');
      await core.committed();
      expect(claimIds(core)).toEqual(['io_kept']);
    } finally {
      core.close();
      core.database.close();
    }
  });
});
