import { join } from 'node:path';
import { request } from 'undici';
import { basicAuthorization } from '../../src/api/client/redact.js';
import type { NewClaimBody } from '../../src/api/schemas/claim.js';
import { startCannedJsonServer } from '../support/bare-server.js';
import { quantile, runClosedLoop, type LoadRequest, type LoadResult } from '../support/load.js';
import { benchApiKey, withSandbox } from '../support/sandbox.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * Issue 7, "Sandbox": new_claim requests/s of the sandbox (no latency, no faults, its real SQLite
 * file) against a bare node:http server answering the sandbox's own 201 body. Both run as child
 * processes and are driven by the same closed-loop undici generator in this process, with the
 * same distinct bodies; the ratio is what the sandbox's routing, validation and storage cost.
 */

const newClaimPath = '/v2/issuer/new_claim';
/** Issue 12: the sandbox answers new_claim at half the rate of a bare node:http server or better. */
const goalRatio = 0.5;

const sizes = {
  full: { warmUpRequests: 500, measuredRequests: 5_000, connections: 32 },
  quick: { warmUpRequests: 50, measuredRequests: 300, connections: 8 },
};

/** A valid new_claim body with ids of its own, so every request is a real create. */
function newClaimBody(index: number): NewClaimBody {
  const amountMinor = 1_000 + (index % 90_000);
  return {
    claim_id: `CLM-BENCH-${index}`,
    card: { last4: String(index % 10_000).padStart(4, '0'), network: 'visa', type: 'credit', expiry_month: 11, expiry_year: 2030 },
    cardholder: { name: `Holder ${index}`, email: `holder${index}@example.com`, type: 'individual' },
    dispute: { date: new Date().toISOString(), raised_by: 'cardholder', reason: 'fraud' },
    issuer_evidence: { cardholder_explanation: 'I did not make this purchase.', card: { is_active: false }, fraud: { was_reported: true } },
    cases: [
      {
        case_id: `CASE-BENCH-${index}`,
        dispute: { amount: amountMinor, currency: 'USD' },
        merchant: { category_code: '5732', name: `Merchant ${index % 997}` },
        transaction: { amount: amountMinor, arn: `7${String(index).padStart(22, '0')}`, currency: 'USD', date: new Date(Date.now() - 10 * 86_400_000).toISOString(), system: 'dual_message' },
      },
    ],
  };
}

const headers = { authorization: basicAuthorization(benchApiKey), 'content-type': 'application/json', accept: 'application/json' };

/** Bodies `first` .. `first + count - 1`, serialised before any timing starts. */
function newClaimRequests(first: number, count: number): LoadRequest[] {
  return Array.from({ length: count }, (_, offset) => ({ path: newClaimPath, headers, body: Buffer.from(JSON.stringify(newClaimBody(first + offset))) }));
}

/** One create through the sandbox (claim 0): proves the body valid and yields the 201 body the baseline replays. */
async function sandboxResponseBody(url: string): Promise<string> {
  const response = await request(new URL(newClaimPath, url), { method: 'POST', headers, body: JSON.stringify(newClaimBody(0)) });
  const text = await response.body.text();
  if (response.statusCode !== 201) throw new Error(`sandbox bench: expected 201 from new_claim, got ${response.statusCode}: ${text.slice(0, 300)}`);
  return text;
}

/** Warm-up (JIT, SQLite page cache, connections), then the measured run: distinct ids throughout. */
async function measure(url: string, requests: { warmUp: LoadRequest[]; measured: LoadRequest[] }, connections: number): Promise<LoadResult> {
  const origin = new URL(url).origin;
  await runClosedLoop({ origin, connections, concurrency: connections, requests: requests.warmUp, expectedStatus: 201 });
  return runClosedLoop({ origin, connections, concurrency: connections, requests: requests.measured, expectedStatus: 201 });
}

const rate = (result: LoadResult) => `${Math.round(result.requestsPerSecond).toLocaleString('en-US')} req/s`;
const latencies = (result: LoadResult) => `p50 ${quantile(result.latenciesMs, 0.5).toFixed(1)} ms, p99 ${quantile(result.latenciesMs, 0.99).toFixed(1)} ms`;

async function run(context: BenchContext): Promise<BenchRow[]> {
  const size = context.quick ? sizes.quick : sizes.full;
  // One sequence of ids for everything sent to the sandbox (0 is the probe): a repeated claim id would be a 409.
  const requests = {
    warmUp: newClaimRequests(1, size.warmUpRequests),
    measured: newClaimRequests(1 + size.warmUpRequests, size.measuredRequests),
  };

  context.log(`sandbox: ${size.measuredRequests} new_claim requests, ${size.connections} connections, against the sandbox`);
  const { sandbox, cannedBody } = await withSandbox({ cliBin: context.cliBin, dbFile: join(context.workDir, 'sandbox-bench.db') }, async ({ url }) => {
    const canned = await sandboxResponseBody(url);
    return { sandbox: await measure(url, requests, size.connections), cannedBody: canned };
  });

  context.log('sandbox: the same requests against a bare node:http server');
  const bare = await startCannedJsonServer(201, cannedBody, join(context.workDir, 'sandbox-bench-response.json'));
  let baseline: LoadResult;
  try {
    baseline = await measure(bare.url, requests, size.connections);
  } finally {
    await bare.stop();
  }

  return [
    {
      benchmark: `Sandbox new_claim (${size.measuredRequests.toLocaleString('en-US')} requests, ${size.connections} connections)`,
      figure: `sandbox: ${rate(sandbox)}`,
      baseline: `bare node:http, canned 201: ${rate(baseline)}`,
      ratio: sandbox.requestsPerSecond / baseline.requestsPerSecond,
      goal: `>= ${goalRatio}`,
      met: sandbox.requestsPerSecond / baseline.requestsPerSecond >= goalRatio,
      note:
        `sandbox ${latencies(sandbox)}; bare ${latencies(baseline)}; servers in child processes, one closed-loop undici Pool ` +
        `(${size.connections} connections, ${size.connections} in flight) in the bench process; ${size.warmUpRequests} warm-up requests each; ` +
        `every body a distinct 1-case claim, SQLite file on disk`,
    },
  ];
}

export const benchCase: BenchCase = { name: 'sandbox', run };
