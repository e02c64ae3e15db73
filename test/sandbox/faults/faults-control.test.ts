import { describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../../src/sandbox/faults/seeded-faults.js';
import { fraudClaim, startTestSandbox } from '../../helpers/sandbox.js';
import { startControlServer } from './control-server.js';
import { outcomeOf, type Outcome } from './outcomes.js';

describe('faults control handlers (GET|POST /_sandbox/faults)', () => {
  it('reads the defaults, replaces the faults at run time, and turns them off again', async () => {
    const sandbox = await startTestSandbox();
    const control = await startControlServer(sandbox.sandbox.core);
    expect(await control('GET')).toEqual({
      status: 200,
      body: { seed: 1, latencyMs: 0, failRate: 0, dropRate: 0, dropAfterCommitRate: 0, retryAfterSeconds: 1 },
    });

    const set = await control('POST', {
      seed: 3,
      failRate: 1,
      retryAfterSeconds: 5,
      routes: ['GET /v2/issuer/claims'],
    });
    const expected = {
      seed: 3,
      latencyMs: 0,
      failRate: 1,
      dropRate: 0,
      dropAfterCommitRate: 0,
      retryAfterSeconds: 5,
      routes: ['GET /v2/issuer/claims'],
    };
    expect(set).toEqual({ status: 200, body: expected });
    expect(await control('GET')).toEqual({ status: 200, body: expected });
    const failed = await sandbox.request('GET', '/v2/issuer/claims');
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('5');
    expect((await sandbox.request('GET', '/v2/issuer/cases')).status).toBe(200);

    expect((await control('POST', {})).status).toBe(200);
    expect((await sandbox.request('GET', '/v2/issuer/claims')).status).toBe(200);
  });

  it('a POST restarts the generator: posting the same seed again replays the same faults', async () => {
    const sandbox = await startTestSandbox();
    const control = await startControlServer(sandbox.sandbox.core);
    const run = async (label: string) => {
      expect((await control('POST', { seed: 11, failRate: 0.4, dropRate: 0.2 })).status).toBe(200);
      const outcomes: Outcome[] = [];
      for (let index = 0; index < 15; index += 1)
        outcomes.push(await outcomeOf(sandbox, 'POST', '/v2/issuer/new_claim', fraudClaim(`claim_${label}_${index}`)));
      return outcomes;
    };
    const first = await run('first');
    expect(await run('second')).toEqual(first);
  });

  it('refuses a bad configuration with the validation shape, naming each field, and keeps the faults in force', async () => {
    const sandbox = await startTestSandbox({ faults: createFaultInjector({ failRate: 1 }) });
    const control = await startControlServer(sandbox.sandbox.core);
    const refused = await control('POST', { failRate: 2, latencyMs: { min: 9, max: 1 }, bogus: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'request failed validation' });
    const fields = (refused.body as { errors: { code: string; details: { field: string } }[] }).errors.map((error) => [
      error.code,
      error.details.field,
    ]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['parameter_invalid', 'failRate'],
        ['parameter_invalid', 'latencyMs.max'],
        ['parameter_unknown', 'bogus'],
      ]),
    );

    const unknownRoute = await control('POST', {
      failRate: 1,
      routes: ['GET /v2/issuer/claims', 'POST /v2/issuer/newclaim'],
    });
    expect(unknownRoute).toEqual({
      status: 400,
      body: {
        message: 'request failed validation',
        errors: [
          {
            code: 'parameter_invalid',
            details: { field: 'routes.1' },
            message: 'routes.1: expected a service route of the sandbox, got "POST /v2/issuer/newclaim"',
          },
        ],
      },
    });
    expect((await control('GET')).body).toMatchObject({ failRate: 1 });
    expect((await sandbox.request('GET', '/v2/issuer/claims')).status).toBe(503);
  });

  it('says so when the faults in force were set in code, not from a configuration', async () => {
    const sandbox = await startTestSandbox({ faults: { decide: () => ({ latencyMs: 0, action: 'none' }) } });
    const control = await startControlServer(sandbox.sandbox.core);
    expect(await control('GET')).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^faults: expected/) as unknown },
    });
  });
});
