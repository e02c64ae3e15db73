import { describe, expect, it } from 'vitest';
import type { Claim } from '../../../src/api/schemas/claim.js';
import { keyTaken } from '../../../src/job-files/migrate/key-taken.js';

/**
 * claim_key_taken, migrate-v1: a claim found under a group's `mig_…` id (after a 409, or a retrieve that
 * settles a lost answer) is adopted only when it is made of the group's cases: some of them, and
 * nothing else. Anything else is another claim under the same key, refused as claim_key_taken.
 */

const claimId = 'mig_0123456789abcdef01234567';
const group = [{ case_id: 'v1-a' }, { case_id: 'v1-b' }, { case_id: 'v1-c' }];

/** The claim as a retrieve returns it: its id and its cases. */
const found = (caseIds: readonly string[]): Claim => ({
  claim_id: claimId,
  status: 'open',
  cases: caseIds.map((caseId) => ({ case_id: caseId })),
});

describe('keyTaken', () => {
  it("ours: the claim holds exactly the group's cases", () => {
    expect(keyTaken(found(['v1-c', 'v1-a', 'v1-b']), group, 409)).toBeUndefined();
  });

  it("ours: the claim holds some of the group's cases and nothing else", () => {
    expect(keyTaken(found(['v1-b']), group)).toBeUndefined();
  });

  it('not ours: the claim holds only other cases; the message names the claim and each of them', () => {
    const problem = keyTaken(found(['other-1', 'other-2']), group, 409);
    expect(problem).toMatchObject({ code: 'claim_key_taken', httpStatus: 409 });
    expect(problem?.message).toContain(`claim ${claimId}`);
    expect(problem?.message).toContain('only other cases (other-1, other-2)');
  });

  it("not ours: the claim holds the group's cases and a foreign one; only the foreign one is named", () => {
    const problem = keyTaken(found(['v1-a', 'v1-b', 'v1-c', 'other-9']), group);
    expect(problem).toMatchObject({ code: 'claim_key_taken', httpStatus: undefined });
    expect(problem?.message).toContain(`claim ${claimId}`);
    expect(problem?.message).toContain('other cases too (other-9)');
    expect(problem?.message).not.toMatch(/v1-[abc]/);
  });

  it('not ours: the claim holds no case at all', () => {
    const problem = keyTaken({ claim_id: claimId, status: 'open', cases: [] }, group, 409);
    expect(problem).toMatchObject({ code: 'claim_key_taken', httpStatus: 409 });
    expect(problem?.message).toContain(`claim ${claimId}`);
    expect(problem?.message).toContain('holding no case');
    // A claim retrieved without its cases list proves nothing either.
    expect(keyTaken({ claim_id: claimId }, group)).toMatchObject({ code: 'claim_key_taken' });
  });

  it('not ours: many foreign cases are named three at a time, the rest counted', () => {
    const problem = keyTaken(found(['other-1', 'other-2', 'other-3', 'other-4', 'other-5']), group);
    expect(problem?.message).toContain('only other cases (other-1, other-2, other-3 and 2 more)');
  });
});
