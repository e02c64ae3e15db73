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

/**
 * Both servers get the same warm-up and are measured in alternating rounds (medians). With 500
 * warm-up requests and one measurement each, sandbox first, the bare server was measured with a
 * client the sandbox's run had warmed, at 13,000-14,000 req/s, against 30,000 once both sides are
 * warm (measured): the ratio said more about the JIT's warm-up than about the sandbox.
 */
const sizes = {
  full: { warmUpRequests: 5_000, measuredRequests: 10_000, rounds: 5, connections: 32 },
  quick: { warmUpRequests: 50, measuredRequests: 300, rounds: 1, connections: 8 },
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

const rate = (result: LoadResult) => `${Math.round(result.requestsPerSecond).toLocaleString('en-US')} req/s`;
const latencies = (result: LoadResult) => `p50 ${quantile(result.latenciesMs, 0.5).toFixed(1)} ms, p99 ${quantile(result.latenciesMs, 0.99).toFixed(1)} ms`;
/** The round with the median rate. */
const medianRound = (results: readonly LoadResult[]) => [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)];
const rates = (results: readonly LoadResult[]) => results.map((result) => Math.round(result.requestsPerSecond).toLocaleString('en-US')).join(', ');

async function run(context: BenchContext): Promise<BenchRow[]> {
  const size = context.quick ? sizes.quick : sizes.full;
  // One sequence of ids for everything sent to the sandbox (0 is the probe): a repeated claim id would be a 409.
  let nextId = 1;
  const take = (count: number) => {
    const batch = newClaimRequests(nextId, count);
    nextId += count;
    return batch;
  };
  const load = async (url: string, requests: LoadRequest[]) =>
    runClosedLoop({ origin: new URL(url).origin, connections: size.connections, concurrency: size.connections, requests, expectedStatus: 201 });

  context.log(`sandbox: ${size.rounds} round(s) of ${size.measuredRequests} new_claim requests, ${size.connections} connections, sandbox and bare node:http in turn`);
  const { sandbox, bare } = await withSandbox({ cliBin: context.cliBin, dbFile: join(context.workDir, 'sandbox-bench.db') }, async ({ url: sandboxUrl }) => {
    const cannedBody = await sandboxResponseBody(sandboxUrl);
    const bareServer = await startCannedJsonServer(201, cannedBody, join(context.workDir, 'sandbox-bench-response.json'));
    try {
      // The bare server answers without reading ids: the same bodies serve its warm-up and rounds.
      const bareRequests = newClaimRequests(0, size.measuredRequests);
      await load(sandboxUrl, take(size.warmUpRequests));
      await load(bareServer.url, newClaimRequests(0, size.warmUpRequests));
      const results = { sandbox: [] as LoadResult[], bare: [] as LoadResult[] };
      for (let round = 1; round <= size.rounds; round++) {
        results.sandbox.push(await load(sandboxUrl, take(size.measuredRequests)));
        results.bare.push(await load(bareServer.url, bareRequests));
      }
      return results;
    } finally {
      await bareServer.stop();
    }
  });

  const [ours, baseline] = [medianRound(sandbox), medianRound(bare)];
  if (ours === undefined || baseline === undefined) throw new Error('sandbox bench: expected at least one round');
  const ratio = ours.requestsPerSecond / baseline.requestsPerSecond;
  return [
    {
      benchmark: `Sandbox new_claim (${size.measuredRequests.toLocaleString('en-US')} requests, ${size.connections} connections)`,
      figure: `sandbox: ${rate(ours)}`,
      baseline: `bare node:http, canned 201: ${rate(baseline)}`,
      ratio,
      goal: `>= ${goalRatio}`,
      met: ratio >= goalRatio,
      note:
        `median of ${size.rounds} alternating round(s) (sandbox ${rates(sandbox)}; bare ${rates(bare)} req/s), ` +
        `each server warmed by ${size.warmUpRequests.toLocaleString('en-US')} requests first; sandbox ${latencies(ours)}; bare ${latencies(baseline)}; ` +
        `servers in child processes, one closed-loop undici Pool (${size.connections} connections, ${size.connections} in flight) in the bench process; ` +
        `every body sent to the sandbox a distinct 1-case claim, SQLite file on disk`,
    },
  ];
}

export const benchCase: BenchCase = { name: 'sandbox', run };
