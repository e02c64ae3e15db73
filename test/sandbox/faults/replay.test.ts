import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../../src/api/errors.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults/config.js';
import { createFaultInjector } from '../../../src/sandbox/faults/seeded-faults.js';
import { fraudClaim, startTestSandbox } from '../../helpers/sandbox.js';
import { expectedOutcome, outcomeOf, plannedActions, type Outcome } from './outcomes.js';

const newClaimRoute = { method: 'POST', pattern: '/v2/issuer/new_claim' };

/** 40 new_claim requests, one after the other, through a fresh sandbox with these faults. */
async function runSequence(config: FaultConfigInput): Promise<Outcome[]> {
  const sandbox = await startTestSandbox({ faults: createFaultInjector(config) });
  const outcomes: Outcome[] = [];
  for (let index = 0; index < 40; index += 1) {
    outcomes.push(await outcomeOf(sandbox, 'POST', '/v2/issuer/new_claim', fraudClaim(`claim_replay_${index}`)));
  }
  return outcomes;
}

describe('seeded faults replay', () => {
  it('the same seed and requests give the same outcomes in two fresh sandboxes; another seed does not', async () => {
    const config = { seed: 7, failRate: 0.3, dropRate: 0.1 };
    const first = await runSequence(config);
    const second = await runSequence(config);
    expect(second).toEqual(first);
    // The run is worth comparing only if it mixes answers, failures and resets.
    expect(new Set(first)).toEqual(new Set([201, 503, 'reset']));
    // ...and it is exactly what the injector planned, request by request.
    expect(first).toEqual(plannedActions(config, newClaimRoute, 40).map((action) => expectedOutcome(action, 201)));
    const otherSeed = await runSequence({ ...config, seed: 8 });
    expect(otherSeed).not.toEqual(first);
  });

  it('with drop-after-commit-rate 1 the client sees a reset, yet the claim exists', async () => {
    const { client } = await startTestSandbox({
      faults: createFaultInjector({ dropAfterCommitRate: 1, routes: ['POST /v2/issuer/new_claim'] }),
    });
    const sent = client.claims.createWithCases(fraudClaim('claim_committed'));
    await expect(sent).rejects.toBeInstanceOf(OutcomeUnknownError);
    await expect(sent).rejects.toMatchObject({ status: undefined });
    // Reads are out of the fault's scope: the same sandbox answers them truthfully.
    const { data } = await client.claims.retrieve('claim_committed');
    expect(data.claim_id).toBe('claim_committed');
    expect(data.cases?.map((item) => item.case_id)).toEqual(['claim_committed-case-1']);
  });
});
