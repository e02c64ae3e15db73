import { describe, expect, it } from 'vitest';
import { sandboxRoutes } from '../../src/sandbox/index.js';
import { fraudClaim, liveKey, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

/** Every way to fail authentication, each with what the sandbox must say. */
const badCredentials: [string, string | undefined, string][] = [
  ['no Authorization header', undefined, 'missing API key: send it as the Basic username'],
  ['an unknown key', basic('test_unknown_key:'), 'invalid API key'],
  ['a Bearer token', 'Bearer test_sandbox_key_0001', 'malformed Authorization header: expected Basic credentials'],
  [
    'Basic without a colon',
    basic(sandboxKey),
    'malformed Authorization header: expected the API key followed by a colon',
  ],
  [
    'Basic with an empty username',
    basic(':'),
    'malformed Authorization header: expected the API key followed by a colon',
  ],
  ['Basic that is not base64', 'Basic !!!', 'malformed Authorization header: expected Basic credentials'],
];

describe('no route answers without a valid key', () => {
  it(`walks all ${sandboxRoutes.length} routes with each bad credential: 401 {message}, nothing done`, async () => {
    const { sandbox, client } = await startTestSandbox({ control: true });
    await client.claims.createWithCases(fraudClaim('claim_guarded'));
    let checked = 0;
    for (const route of sandboxRoutes) {
      const path = route.pattern.replace('{claim_id}', 'claim_guarded').replace('{case_id}', 'claim_guarded-case-1');
      for (const [name, authorization, message] of badCredentials) {
        const response = await fetch(`${sandbox.url}${path}`, {
          method: route.method,
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          body: route.method === 'GET' ? undefined : '{}',
        });
        expect({
          route: `${route.method} ${route.pattern}`,
          name,
          status: response.status,
          body: await response.json(),
        }).toEqual({
          route: `${route.method} ${route.pattern}`,
          name,
          status: 401,
          body: { message },
        });
        checked++;
      }
    }
    expect(checked).toBe(sandboxRoutes.length * badCredentials.length);
    // Nothing was changed by any of those requests.
    const claim = await client.claims.retrieve('claim_guarded');
    expect(claim.data).toMatchObject({ status: 'open', cases: [{ status: 'created' }] });
  });

  it('refuses unknown paths without a key too, rather than revealing what exists', async () => {
    const { request } = await startTestSandbox();
    expect((await request('GET', '/v2/issuer/nothing-here', undefined, 'test_nobody')).status).toBe(401);
    expect(await request('GET', '/v2/issuer/nothing-here')).toMatchObject({
      status: 404,
      body: { message: 'no such route: GET /v2/issuer/nothing-here' },
    });
  });
});

describe('test and live data never meet', () => {
  it('a claim made with a test key is 404 and unlisted for a live key, and back', async () => {
    const { client, live } = await startTestSandbox();
    await client.claims.createWithCases(fraudClaim('claim_test_side'));
    await live.claims.createWithCases(fraudClaim('claim_live_side'));

    await expect(live.claims.retrieve('claim_test_side')).rejects.toMatchObject({
      status: 404,
      serviceMessage: 'claim not found',
    });
    await expect(live.cases.retrieve('claim_test_side-case-1')).rejects.toMatchObject({
      status: 404,
      serviceMessage: 'case not found',
    });
    await expect(client.claims.retrieve('claim_live_side')).rejects.toMatchObject({ status: 404 });

    const liveClaims = (await live.claims.list({ limit: 100 })).data.data.map((claim) => claim.claim_id);
    const testClaims = (await client.claims.list({ limit: 100 })).data.data.map((claim) => claim.claim_id);
    expect(liveClaims).toEqual(['claim_live_side']);
    expect(testClaims).toEqual(['claim_test_side']);
    const liveEvents = (await live.events.list({ limit: 100 })).data.data.map((event) => event.data.case_id);
    expect(liveEvents).toEqual(['claim_live_side-case-1']);
  });

  it('the same client-supplied id may exist once per environment, so a 409 reveals nothing across', async () => {
    const { client, live } = await startTestSandbox();
    await client.claims.createWithCases(fraudClaim('claim_same'));
    const liveResult = await live.claims.createWithCases(fraudClaim('claim_same'));
    expect(liveResult.status).toBe(201);
    await expect(live.claims.createWithCases(fraudClaim('claim_same'))).rejects.toMatchObject({ status: 409 });
  });

  it('a live key reaches the production environment, a test_ key the sandbox one', async () => {
    const { request } = await startTestSandbox();
    await request('POST', '/v2/issuer/new_claim', fraudClaim('claim_by_live'), liveKey);
    expect(
      ((await request('GET', '/v2/issuer/claims', undefined, liveKey)).body as { data: unknown[] }).data,
    ).toHaveLength(1);
    expect(
      ((await request('GET', '/v2/issuer/claims', undefined, sandboxKey)).body as { data: unknown[] }).data,
    ).toHaveLength(0);
  });
});
