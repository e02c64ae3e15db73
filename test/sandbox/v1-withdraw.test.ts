import { describe, expect, it } from 'vitest';
import { v1Case } from '../migrate/fixtures.js';
import { startTestSandbox } from '../helpers/sandbox.js';

/**
 * Withdraw and delete reach the cases version 1 made too (one case store, one state table), with
 * a `case.withdrawn` event, and version 1's listing shows the result.
 */
describe('withdraw and delete on version 1 cases', () => {
  it('a v1 case is withdrawn (closed, withdrawn, one case.withdrawn event) and another deleted; the v1 listing shows both', async () => {
    const t = await startTestSandbox();
    for (const caseId of ['v1w-1', 'v1w-2'])
      expect((await t.request('POST', '/v1/issuer/cases', v1Case(caseId))).status).toBeLessThan(300);

    expect(await t.request('POST', '/v2/issuer/cases/v1w-1/withdraw')).toMatchObject({
      status: 202,
      body: { success: true },
    });
    expect((await t.request('GET', '/v2/issuer/cases/v1w-1')).body).toMatchObject({
      status: 'closed',
      closed_reason: 'withdrawn',
    });
    // A second withdrawal changes nothing: 400, already closed.
    expect(await t.request('POST', '/v2/issuer/cases/v1w-1/withdraw')).toMatchObject({
      status: 400,
      body: { message: 'cannot withdraw a case that is already closed' },
    });

    expect(await t.request('DELETE', '/v2/issuer/cases/v1w-2')).toMatchObject({ status: 200, body: { success: true } });
    expect((await t.request('GET', '/v2/issuer/cases/v1w-2')).status).toBe(404);

    const listed = (await t.request('GET', '/v1/issuer/cases?limit=100')).body as {
      data: { case_id: string; status: string; closed_reason?: string | null }[];
    };
    expect(listed.data.map((item) => [item.case_id, item.status, item.closed_reason])).toEqual([
      ['v1w-1', 'closed', 'withdrawn'],
    ]);
    const events = (await t.request('GET', '/v2/issuer/events?limit=100')).body as {
      data: { type: string; data: { case_id: string } }[];
    };
    expect(events.data.filter((event) => event.type === 'case.withdrawn').map((event) => event.data.case_id)).toEqual([
      'v1w-1',
    ]);
  });
});
