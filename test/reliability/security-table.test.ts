import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, sandboxRoutes, type Sandbox } from '../../src/sandbox/index.js';
import { pdfBytes } from '../evidence/fixtures.js';
import { readResultsStrict } from './strict-results.js';
import { fraudClaim, liveKey, sandboxKey, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericColumns,
  genericMapping,
  lineOf,
  makeWorkspace,
  readResults,
  runCli,
  type GenericRow,
} from '../import/e2e-fixtures.js';

/**
 * The security reference, one table per concern, each row a test whose name reads as the row.
 * Routes come from the sandbox's own route table, and the table must cover each of them.
 *
 * - every route refuses a missing, malformed or unknown key (401, nothing done);
 * - every route keeps the test and production environments apart, in both directions;
 * - evidence paths that leave --evidence-dir are `invalid` / `evidence_path_outside`;
 * - results cells a spreadsheet would run are neutralised;
 * - the API key appears nowhere the tool writes or says, a refused key included.
 */

type Key = typeof sandboxKey | typeof liveKey;
const environmentOf = (key: Key) => (key === sandboxKey ? 'test' : 'live');
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

interface Owned {
  claimId: string;
  caseId: string;
  /** A v1 case no claim holds yet. */
  looseCaseId: string;
  fileId: string;
}

/** What one environment holds before a row runs: a claim with a case, a loose v1 case, a file. */
async function seedEnvironment(t: TestSandbox, key: Key): Promise<Owned> {
  const client = key === sandboxKey ? t.client : t.live;
  const prefix = environmentOf(key);
  const claimId = `claim_${prefix}_only`;
  await client.claims.createWithCases(fraudClaim(claimId));
  const looseCaseId = `case_${prefix}_loose`;
  const v1 = await t.request('POST', '/v1/issuer/cases', v1Case(looseCaseId), key);
  expect(v1.status, JSON.stringify(v1.body)).toBe(201);
  const upload = await client.files.upload({
    category: 'transaction_receipt',
    filename: 'receipt.pdf',
    contentType: 'application/pdf',
    content: await pdfBytes(1),
  });
  return { claimId, caseId: `${claimId}-case-1`, looseCaseId, fileId: upload.data.id };
}

function v1Case(caseId: string) {
  const date = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000).toISOString();
  return {
    case_id: caseId,
    cardholder: { name: 'Grace Hopper', type: 'individual' },
    dispute: { amount: 2599, currency: 'EUR', date },
    merchant: { name: 'Bookshop', category_code: '5942' },
    reason: 'duplicate',
    transaction: {
      amount: 2599,
      currency: 'EUR',
      date,
      switch_serial_number: 'SSN-0001',
      card_last4: '5454',
      card_expiry_month: 3,
      card_expiry_year: 2030,
      card_network: 'mastercard',
      card_type: 'debit',
      system: 'single_message',
    },
    issuer_evidence: {
      cardholder_message: 'charged twice',
      explanation: 'two identical captures',
      card: { active: true },
      refund: { promised: false },
    },
  };
}

/** Rows per table, per environment, so that any request's side effect shows as a changed count. */
function counts(sandbox: Sandbox): Record<string, number> {
  const rows = sandbox.core.database
    .prepare(
      "SELECT 'claims' AS t, environment, count(*) AS n FROM claims GROUP BY environment UNION ALL SELECT 'cases', environment, count(*) FROM cases GROUP BY environment UNION ALL SELECT 'files', environment, count(*) FROM files GROUP BY environment UNION ALL SELECT 'events', environment, count(*) FROM events GROUP BY environment",
    )
    .all() as { t: string; environment: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [`${row.t}/${row.environment}`, row.n]));
}

interface CrossCheck {
  /** What the row says, for the test name. */
  says: string;
  /**
   * Runs the route as `other` against what `owner` holds, then as `owner` the same way: the
   * second shows the request itself was good, so the first's answer is the environment's doing.
   */
  check: (t: TestSandbox, owner: Key, other: Key, owned: Owned) => Promise<void>;
}

type Send = (t: TestSandbox, key: Key, owned: Owned) => Promise<{ status: number; body: unknown }>;

/** An id route: the other environment gets 404 and changes nothing; the owner gets `ownStatus`. */
function notFoundAcross(
  send: Send,
  ownStatus: number,
  prepare?: (t: TestSandbox, owner: Key, owned: Owned) => Promise<void>,
): CrossCheck {
  return {
    says: `404, nothing changed; the owner gets ${ownStatus}`,
    check: async (t, owner, other, owned) => {
      await prepare?.(t, owner, owned);
      const before = counts(t.sandbox);
      const ownerView = (await t.request('GET', `/v2/issuer/claims/${owned.claimId}`, undefined, owner)).body;
      const across = await send(t, other, owned);
      expect(across.status, JSON.stringify(across.body)).toBe(404);
      expect(counts(t.sandbox)).toEqual(before);
      expect((await t.request('GET', `/v2/issuer/claims/${owned.claimId}`, undefined, owner)).body).toEqual(ownerView);
      const own = await send(t, owner, owned);
      expect(own.status, JSON.stringify(own.body)).toBe(ownStatus);
    },
  };
}

/** A list route: the other environment's listing leaves out what the owner holds; the owner's has it. */
function unlistedAcross(path: string, idOf: (owned: Owned) => string): CrossCheck {
  return {
    says: "200 without the owner's records; the owner's listing has them",
    check: async (t, owner, other, owned) => {
      const across = await t.request('GET', path, undefined, other);
      expect(across.status).toBe(200);
      expect(JSON.stringify(across.body)).not.toContain(idOf(owned));
      const own = await t.request('GET', path, undefined, owner);
      expect(own.status).toBe(200);
      expect(JSON.stringify(own.body)).toContain(idOf(owned));
    },
  };
}

/** A create with a client-supplied id: each environment has its own ids (201 across, 409 for the owner again). */
function ownNamespace(
  path: string,
  body: (owned: Owned) => object,
  idOf: (owned: Owned) => string,
  readPath: (owned: Owned) => string,
): CrossCheck {
  return {
    says: "the same id is created anew (201) and the owner's record is untouched; the owner repeating it gets 409",
    check: async (t, owner, other, owned) => {
      const ownerView = await t.request('GET', readPath(owned), undefined, owner);
      expect(ownerView.status).toBe(200);
      const across = await t.request('POST', path, body(owned), other);
      expect(across.status, JSON.stringify(across.body)).toBe(201);
      expect(JSON.stringify(across.body)).toContain(idOf(owned));
      expect((await t.request('GET', readPath(owned), undefined, owner)).body).toEqual(ownerView.body);
      expect((await t.request('POST', path, body(owned), owner)).status).toBe(409);
    },
  };
}

/** Sandbox-wide by design (docs/sandbox.md, "Control prefix": one sandbox, one operator): shared, but naming no record. */
function sharedByDesign(method: 'GET' | 'POST', path: string, body?: object): CrossCheck {
  return {
    says: 'sandbox-wide by design (docs/sandbox.md): 200 for both, naming no record of either',
    check: async (t, owner, other, owned) => {
      for (const key of [other, owner]) {
        const answer = await t.request(method, path, body, key);
        expect(answer.status).toBe(200);
        for (const id of [owned.claimId, owned.caseId, owned.fileId])
          expect(JSON.stringify(answer.body)).not.toContain(id);
      }
    },
  };
}

const fileMode = { file_mode: 'chargeback' };

/** Every route of the sandbox, with what crossing environments on it must do. */
const crossTable: Record<string, CrossCheck> = {
  'POST /v2/issuer/claims': {
    says: "claiming the owner's loose case is 400 resource_missing; the owner's own claim of it is 201",
    check: async (t, owner, other, owned) => {
      const body = { claim_id: 'claim_gathering', case_ids: [owned.looseCaseId] };
      const before = counts(t.sandbox);
      const across = await t.request('POST', '/v2/issuer/claims', body, other);
      expect(across).toMatchObject({ status: 400, body: { errors: [{ code: 'resource_missing' }] } });
      expect(counts(t.sandbox)).toEqual(before);
      expect((await t.request('POST', '/v2/issuer/claims', body, owner)).status).toBe(201);
    },
  },
  'GET /v2/issuer/claims': unlistedAcross('/v2/issuer/claims', (owned) => owned.claimId),
  'GET /v2/issuer/claims/{claim_id}': notFoundAcross(
    async (t, key, owned) => t.request('GET', `/v2/issuer/claims/${owned.claimId}`, undefined, key),
    200,
  ),
  'PUT /v2/issuer/claims/{claim_id}/cases': notFoundAcross(
    async (t, key, owned) =>
      t.request(
        'PUT',
        `/v2/issuer/claims/${owned.claimId}/cases`,
        { case_ids: [owned.caseId, owned.looseCaseId] },
        key,
      ),
    200,
  ),
  'POST /v2/issuer/claims/{claim_id}/file': notFoundAcross(
    async (t, key, owned) => t.request('POST', `/v2/issuer/claims/${owned.claimId}/file`, fileMode, key),
    202,
  ),
  'POST /v2/issuer/claims/{claim_id}/withdraw': notFoundAcross(
    async (t, key, owned) => t.request('POST', `/v2/issuer/claims/${owned.claimId}/withdraw`, undefined, key),
    202,
  ),
  'POST /v2/issuer/new_claim': ownNamespace(
    '/v2/issuer/new_claim',
    (owned) => fraudClaim(owned.claimId),
    (owned) => owned.claimId,
    (owned) => `/v2/issuer/claims/${owned.claimId}`,
  ),
  'GET /v2/issuer/cases': unlistedAcross('/v2/issuer/cases', (owned) => owned.caseId),
  'GET /v2/issuer/cases/{case_id}': notFoundAcross(
    async (t, key, owned) => t.request('GET', `/v2/issuer/cases/${owned.caseId}`, undefined, key),
    200,
  ),
  'PUT /v2/issuer/cases/{case_id}': notFoundAcross(
    async (t, key, owned) =>
      t.request(
        'PUT',
        `/v2/issuer/cases/${owned.caseId}`,
        { case_id: owned.caseId, merchant: { name: 'Renamed' } },
        key,
      ),
    200,
  ),
  'DELETE /v2/issuer/cases/{case_id}': notFoundAcross(
    async (t, key, owned) => t.request('DELETE', `/v2/issuer/cases/${owned.caseId}`, undefined, key),
    200,
  ),
  'POST /v2/issuer/cases/{case_id}/withdraw': notFoundAcross(
    async (t, key, owned) => t.request('POST', `/v2/issuer/cases/${owned.caseId}/withdraw`, undefined, key),
    202,
  ),
  'POST /v2/issuer/cases/{case_id}/run_workflow': notFoundAcross(
    async (t, key, owned) => t.request('POST', `/v2/issuer/cases/${owned.caseId}/run_workflow`, undefined, key),
    202,
  ),
  'POST /v2/issuer/cases/{case_id}/file': notFoundAcross(
    async (t, key, owned) => t.request('POST', `/v2/issuer/cases/${owned.caseId}/file`, fileMode, key),
    202,
  ),
  'GET /v2/issuer/cases/{case_id}/review': notFoundAcross(
    async (t, key, owned) => t.request('GET', `/v2/issuer/cases/${owned.caseId}/review`, undefined, key),
    200,
  ),
  'POST /v2/issuer/files': {
    says: "a file uploaded by one is unknown to the other: a case naming it has no such document; the owner's case has it",
    check: async (t, owner, other, owned) => {
      const otherClient = other === sandboxKey ? t.client : t.live;
      const ownerClient = owner === sandboxKey ? t.client : t.live;
      const probe = fraudClaim('claim_probe');
      await otherClient.claims.createWithCases({
        ...probe,
        issuer_evidence: { ...probe.issuer_evidence, documentation: [owned.fileId] },
      });
      expect((await otherClient.cases.review('claim_probe-case-1')).data.documentation_review?.files).toEqual([]);
      await ownerClient.claims.createWithCases({
        ...probe,
        issuer_evidence: { ...probe.issuer_evidence, documentation: [owned.fileId] },
      });
      expect(
        (await ownerClient.cases.review('claim_probe-case-1')).data.documentation_review?.files?.map(
          (file) => file.id,
        ) ?? [],
      ).toEqual([owned.fileId]);
    },
  },
  'GET /v2/issuer/events': unlistedAcross('/v2/issuer/events?limit=100', (owned) => owned.caseId),
  'POST /v1/issuer/cases': ownNamespace(
    '/v1/issuer/cases',
    (owned) => v1Case(owned.looseCaseId),
    (owned) => owned.looseCaseId,
    (owned) => `/v2/issuer/cases/${owned.looseCaseId}`,
  ),
  'GET /v1/issuer/cases': unlistedAcross('/v1/issuer/cases', (owned) => owned.looseCaseId),
  'POST /_sandbox/cases/{case_id}/unavailable': notFoundAcross(
    async (t, key, owned) =>
      t.request('POST', `/_sandbox/cases/${owned.caseId}/unavailable`, { unavailable: true }, key),
    200,
  ),
  'POST /_sandbox/cases/{case_id}/advance': notFoundAcross(
    async (t, key, owned) => t.request('POST', `/_sandbox/cases/${owned.caseId}/advance`, { status: 'won' }, key),
    200,
    async (t, owner, owned) => {
      expect((await t.request('POST', `/v2/issuer/claims/${owned.claimId}/file`, fileMode, owner)).status).toBe(202);
    },
  ),
  'GET /_sandbox/clock': sharedByDesign('GET', '/_sandbox/clock'),
  'POST /_sandbox/clock': sharedByDesign('POST', '/_sandbox/clock', { advance_ms: 1 }),
  'POST /_sandbox/reset': {
    says: "forgets only the caller's environment: the owner's records stay; the owner's reset forgets them",
    check: async (t, owner, other, owned) => {
      expect((await t.request('POST', '/_sandbox/reset', undefined, other)).status).toBe(200);
      expect((await t.request('GET', `/v2/issuer/claims/${owned.claimId}`, undefined, owner)).status).toBe(200);
      expect((await t.request('GET', `/v2/issuer/cases/${owned.looseCaseId}`, undefined, owner)).status).toBe(200);
      expect((await t.request('POST', '/_sandbox/reset', undefined, owner)).status).toBe(200);
      expect((await t.request('GET', `/v2/issuer/claims/${owned.claimId}`, undefined, owner)).status).toBe(404);
    },
  },
  'GET /_sandbox/faults': sharedByDesign('GET', '/_sandbox/faults'),
  'POST /_sandbox/faults': sharedByDesign('POST', '/_sandbox/faults', {}),
};

const routeNames = sandboxRoutes.map((route) => `${route.method} ${route.pattern}`);

/** A request on `route` with placeholder ids and a JSON body, with these headers. */
async function hit(
  url: string,
  route: (typeof sandboxRoutes)[number],
  headers: Record<string, string>,
): Promise<Response> {
  const path = route.pattern.replace('{claim_id}', 'claim_test_only').replace('{case_id}', 'claim_test_only-case-1');
  return fetch(`${url}${path}`, {
    method: route.method,
    headers: { 'content-type': 'application/json', ...headers },
    body: route.method === 'GET' ? undefined : '{}',
  });
}

const refusedCredentials: [string, Record<string, string>, string][] = [
  ['no key', {}, 'missing API key: send it as the Basic username'],
  [
    'malformed key (Bearer)',
    { authorization: `Bearer ${sandboxKey}` },
    'malformed Authorization header: expected Basic credentials',
  ],
  [
    'malformed key (Basic, no colon)',
    { authorization: basic(sandboxKey) },
    'malformed Authorization header: expected the API key followed by a colon',
  ],
  [
    'malformed key (Basic, not base64)',
    { authorization: 'Basic %%%' },
    'malformed Authorization header: expected Basic credentials',
  ],
  ['unknown key', { authorization: basic('test_unknown_key_9999:') }, 'invalid API key'],
];

describe('the route table is the whole router', () => {
  it(`covers each of the ${routeNames.length} routes the sandbox registers, and no other`, () => {
    expect(Object.keys(crossTable).sort()).toEqual([...routeNames].sort());
    expect(new Set(routeNames).size).toBe(routeNames.length);
  });
});

describe.each(sandboxRoutes.map((route) => [`${route.method} ${route.pattern}`, route] as const))(
  '%s',
  (name, route) => {
    it.each(refusedCredentials)(`│ %s │ 401 {message}, nothing done`, async (_label, headers, message) => {
      const t = await startTestSandbox({ control: true });
      await seedEnvironment(t, sandboxKey);
      const before = counts(t.sandbox);
      const response = await hit(t.sandbox.url, route, headers);
      const body = await response.text();
      expect({ route: name, status: response.status, body: JSON.parse(body) as unknown }).toEqual({
        route: name,
        status: 401,
        body: { message },
      });
      // No challenge: a browser would ask for a key and then send it for any page (docs/sandbox.md).
      expect(response.headers.get('www-authenticate')).toBeNull();
      // A refused key is never echoed back.
      expect(body).not.toContain(sandboxKey);
      expect(body).not.toContain('test_unknown_key_9999');
      expect(counts(t.sandbox)).toEqual(before);
    });

    const cross = crossTable[name];
    it.each([
      ['live key on test data', liveKey, sandboxKey],
      ['test key on live data', sandboxKey, liveKey],
    ] as const)(`│ %s │ ${cross?.says ?? 'MISSING FROM THE TABLE'}`, async (_label, other, owner) => {
      if (cross === undefined) throw new Error(`${name}: not in the cross-environment table`);
      const t = await startTestSandbox({ control: true });
      // Both environments hold records with different ids, so a leak in either direction shows.
      const owned = await seedEnvironment(t, owner);
      await seedEnvironment(t, other);
      await cross.check(t, owner, other, owned);
    });
  },
);

/** Evidence cells that leave --evidence-dir, by any route. */
const outsidePaths: [string, string][] = [
  ['parent traversal', '../../etc/passwd'],
  ['absolute path', '/etc/passwd'],
  ['backslash traversal', '..\\x'],
  ['backslash traversal to a real file', '..\\outside\\secret.pdf'],
  ['traversal inside a path', 'sub/../../outside/secret.pdf'],
  ['symlink to a file outside', 'link-to-secret.pdf'],
  ['file under a symlinked directory outside', 'linked-dir/secret.pdf'],
  ['absolute path to a real file outside', '{outside}/secret.pdf'],
];

/** A workspace whose evidence directory has ways out (a symlinked file and directory) and one good PDF. */
async function workspaceWithWaysOut() {
  const workspace = await makeWorkspace();
  const outside = join(workspace.dir, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'secret.pdf'), await pdfBytes(1));
  await mkdir(join(workspace.evidenceDir, 'sub'));
  await symlink(join(outside, 'secret.pdf'), join(workspace.evidenceDir, 'link-to-secret.pdf'));
  await symlink(outside, join(workspace.evidenceDir, 'linked-dir'));
  await workspace.evidence('receipts/sakuragawa-folio.pdf', 'folio.pdf');
  return { workspace, outside };
}

describe('evidence paths outside --evidence-dir (import --dry-run: checked, never read)', () => {
  it.each(outsidePaths)(
    '│ receipt_file, %s │ %s │ invalid evidence_path_outside; the good row next to it is valid',
    async (_label, cell) => {
      const { workspace, outside } = await workspaceWithWaysOut();
      const path = cell.replace('{outside}', outside);
      const input = await workspace.write(
        'disputes.csv',
        csvOf([duplicateChargeRow('P', 'T1', path), duplicateChargeRow('OK', 'T1', 'folio.pdf')]),
      );

      const run = await runCli(
        [
          'import',
          input,
          '--mapping',
          genericMapping,
          '--results',
          workspace.results,
          '--evidence-dir',
          workspace.evidenceDir,
          '--dry-run',
        ],
        {},
      );

      expect(run.exitCode, run.stderr).toBe(1);
      const results = await readResults(workspace.results);
      expect(lineOf(results, 2)).toMatchObject({
        outcome: 'invalid',
        error_code: 'evidence_path_outside',
        error_field: 'evidence.receipt_file',
      });
      expect(lineOf(results, 3)).toMatchObject({ outcome: 'valid', error_code: '' });
    },
  );

  it.each(outsidePaths)(
    '│ correspondence_files (a list), %s │ %s │ invalid evidence_path_outside',
    async (_label, cell) => {
      const { workspace, outside } = await workspaceWithWaysOut();
      await workspace.evidence('correspondence/northwind-support-reply.png', 'reply.png');
      const path = cell.replace('{outside}', outside);
      const input = await workspace.write(
        'disputes.csv',
        csvOf([duplicateChargeRow('C', 'T1', 'folio.pdf', { correspondence_files: `reply.png;${path}` })]),
      );

      const run = await runCli(
        [
          'import',
          input,
          '--mapping',
          genericMapping,
          '--results',
          workspace.results,
          '--evidence-dir',
          workspace.evidenceDir,
          '--dry-run',
        ],
        {},
      );

      expect(run.exitCode, run.stderr).toBe(1);
      expect(lineOf(await readResults(workspace.results), 2)).toMatchObject({
        outcome: 'invalid',
        error_code: 'evidence_path_outside',
        error_field: 'evidence.correspondence_files',
      });
    },
  );
});

/** A cell as written → as the results CSV has it. */
const formulaCells: [string, string, string][] = [
  ['=', '=HYPERLINK("http://evil","x")', `'=HYPERLINK("http://evil","x")`],
  ['+', '+cmd|calc', `'+cmd|calc`],
  ['-', '-2+3', `'-2+3`],
  ['@', '@SUM(1)', `'@SUM(1)`],
  ['tab', '\t=1+1', `'\t=1+1`],
  ['CR', '\r=1+1', `'\r=1+1`],
  ['- (a plain negative number stays)', '-12.50', '-12.50'],
  ['none', 'fine', 'fine'],
];

describe('formula cells in the results CSV', () => {
  it.each(formulaCells)(
    '│ prefix %s │ %j → %j, in source columns, and no cell of the file starts a formula',
    async (_label, cell, expected) => {
      const workspace = await makeWorkspace();
      const columns = [...genericColumns, 'notes'];
      const row: GenericRow = fraudRow('R1', 'T1', { notes: cell, cardholder_name: cell });
      const keyed: GenericRow = fraudRow(cell === '' ? 'K' : cell, 'T1');
      const input = await workspace.write('disputes.csv', csvOf([row, keyed], { columns }));

      const run = await runCli(
        ['import', input, '--mapping', genericMapping, '--results', workspace.results, '--dry-run'],
        {},
      );

      expect([0, 1], run.stderr).toContain(run.exitCode);
      // Read as a spreadsheet would: a CR left unquoted would split the row.
      const results = await readResultsStrict(workspace.results);
      expect(results.rows.map((result) => result.line)).toEqual(['2', '3']);
      const [first, second] = results.rows;
      expect(first?.notes).toBe(expected);
      // The same on any other source column, the claim key's own column included.
      expect(first?.cardholder_name).toBe(expected);
      expect(second?.dispute_ref).toBe(expected);
      // The status columns derived from it (claim_key, claim_id, case_id: the key trimmed) are checked below with every cell.
      for (const result of results.rows) {
        for (const [column, value = ''] of Object.entries(result)) {
          expect(
            /^[=+@\t\r]/.test(value) || (/^-/.test(value) && !/^-\d+(\.\d+)?$/.test(value)),
            `${column}: ${JSON.stringify(value)}`,
          ).toBe(false);
        }
      }
    },
  );
});

describe('the API key appears nowhere', () => {
  const canary = 'test_SECRET_canary_7431';
  const refused = 'test_REFUSED_canary_0815';
  const forms = (key: string) => [
    key,
    Buffer.from(`${key}:`).toString('base64'),
    key.slice(5, -5),
    encodeURIComponent(key),
  ];

  let sandbox: Sandbox | undefined;
  let dir = '';
  /** Where each run left its traces: name → bytes. */
  const traces = new Map<string, Buffer>();
  let accepted = { exitCode: -1, stderr: '' };
  let refusedRun = { exitCode: -1, stderr: '' };
  let checkRun = { exitCode: -1, stderr: '' };

  beforeAll(async () => {
    sandbox = await createSandbox({ apiKeys: [canary] });
    dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-key-'));
    const evidenceDir = join(dir, 'evidence');
    await mkdir(evidenceDir);
    await writeFile(join(evidenceDir, 'folio.pdf'), await pdfBytes(1));
    const input = join(dir, 'disputes.csv');
    await writeFile(
      input,
      csvOf([
        fraudRow('A', 'T1'),
        duplicateChargeRow('B', 'T1', 'folio.pdf'),
        fraudRow('C', 'T1', { card_active: 'yes' }),
        fraudRow('D', 'T1', { disputed_amount: 'x' }),
      ]),
    );
    const args = (name: string) => [
      '--log-level',
      'trace',
      'import',
      input,
      '--mapping',
      genericMapping,
      '--evidence-dir',
      evidenceDir,
      '--base-url',
      sandbox?.url ?? '',
      '--results',
      join(dir, `${name}.results.csv`),
      '--journal',
      join(dir, `${name}.journal.sqlite`),
      '--payloads',
      join(dir, `${name}.payloads.jsonl`),
    ];

    const ok = await runCli(args('accepted'), { CLAIMS_API_KEY: canary });
    accepted = { exitCode: ok.exitCode, stderr: ok.stderr };
    traces.set('accepted run: stdout + stderr (trace logs)', Buffer.from(ok.stdout + ok.stderr));
    const no = await runCli(args('refused'), { CLAIMS_API_KEY: refused });
    refusedRun = { exitCode: no.exitCode, stderr: no.stderr };
    traces.set('refused key run: stdout + stderr (trace logs, error message)', Buffer.from(no.stdout + no.stderr));
    const check = await runCli(['--log-level', 'trace', 'check', '--base-url', sandbox.url], {
      CLAIMS_API_KEY: refused,
    });
    checkRun = { exitCode: check.exitCode, stderr: check.stderr };
    traces.set('check with a refused key: stdout + stderr', Buffer.from(check.stdout + check.stderr));
    const answer = await fetch(`${sandbox.url}/v2/issuer/claims`, { headers: { authorization: basic(`${refused}:`) } });
    traces.set(
      "the sandbox's 401 answer to a refused key",
      Buffer.from(`${JSON.stringify([...answer.headers])}${await answer.text()}`),
    );
    for (const name of ['accepted', 'refused']) {
      for (const suffix of [
        '.results.csv',
        '.payloads.jsonl',
        '.journal.sqlite',
        '.journal.sqlite-wal',
        '.journal.sqlite-shm',
      ]) {
        const file = join(dir, `${name}${suffix}`);
        if (existsSync(file)) traces.set(`${name} run: ${suffix.slice(1)}`, await readFile(file));
      }
    }
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('the runs did what they were for: 1 with the key accepted, 3 with it refused, and every file written', () => {
    expect(accepted.exitCode, accepted.stderr).toBe(1);
    // Every request was logged, so the key had its chances.
    expect(
      accepted.stderr.split('\n').filter((line) => line.includes('"claims request"')).length,
    ).toBeGreaterThanOrEqual(8);
    expect(refusedRun.exitCode, refusedRun.stderr).toBe(3);
    expect(checkRun.exitCode, checkRun.stderr).toBe(3);
    expect([...traces.keys()]).toEqual(
      expect.arrayContaining([
        'accepted run: results.csv',
        'accepted run: payloads.jsonl',
        'accepted run: journal.sqlite',
        'refused run: results.csv',
        'refused run: journal.sqlite',
      ]),
    );
  });

  const places = [
    'accepted run: stdout + stderr (trace logs)',
    'accepted run: results.csv',
    'accepted run: payloads.jsonl',
    'accepted run: journal.sqlite',
    'accepted run: journal.sqlite-wal',
    'refused key run: stdout + stderr (trace logs, error message)',
    'refused run: results.csv',
    'refused run: journal.sqlite',
    'refused run: journal.sqlite-wal',
    'check with a refused key: stdout + stderr',
    "the sandbox's 401 answer to a refused key",
  ];
  it.each(places)('│ %s │ no key, in plain, base64 (Basic), partial or URL-encoded form', (place) => {
    const bytes = traces.get(place);
    // A -wal file is gone once the journal closes cleanly; then there is nothing in it to leak.
    if (bytes === undefined && place.endsWith('-wal')) return;
    expect(bytes, `${place} was not written`).toBeDefined();
    for (const secret of [...forms(canary), ...forms(refused)])
      expect(bytes?.includes(secret), `${secret} in ${place}`).toBe(false);
  });
});
