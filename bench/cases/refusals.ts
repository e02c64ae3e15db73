import { join } from 'node:path';
import { plannedRows, writeDisputesCsv } from '../../test/import/generate.js';
import { recordImport, replayInSandbox } from '../support/import-anchor.js';
import { importIntoSandbox, importJob, type ImportRun } from '../support/import-run.js';
import { replay, startRecorder, type RequestSequence } from '../support/replay-anchor.js';
import { benchApiKey, seededFaultFlags, setSandboxFaults, withSandbox } from '../support/sandbox.js';
import { runWithdrawTimed, type WithdrawRun } from '../support/withdraw-run.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * Refusals without collapse (docs/rate-limits.md): the real import and withdraw against a
 * sandbox that refuses some requests with 503, beside the anchor measured in the same run: the
 * plainest client sending the very same requests (support/replay-anchor.ts), each refusal
 * waiting its own Retry-After, nobody else waiting. Same sandbox flags and seed for both, a
 * fresh sandbox for each run.
 *
 * - Sporadic 503s on every route, 1% and 5% (and 0% to show the gap without faults): the
 *   import's sending phase (its summary) against the anchor's, 2,000 one-row claims, c=32,
 *   latency 50 ms, Retry-After 1 s.
 * - Only filing refused, 10% of its requests: the import with filing (two requests a claim).
 * - Overload: a sandbox holding 16 requests at once (`--capacity 16`, latency 50 ms) and an
 *   import at --concurrency 64: against 16 / 50 ms, what the service can do; the anchor here is
 *   that arithmetic, not a client.
 * - withdraw at 5% sporadic 503s, latency 10-40 ms, c=16, beside the anchor replaying its
 *   retrieves and withdrawals on an identical night.
 */

const concurrency = 32;
const latencyMs = 50;
const seed = 5;
const claimsFor = { full: 2_000, quick: 200 };
const capacity = { limit: 16, concurrency: 64, claims: { full: 4_000, quick: 400 }, goal: 0.85, refusedShare: 0.05 };
const withdrawSetting = { concurrency: 16, failRate: 0.05, latencyMs: { min: 10, max: 40 }, goal: 0.8 };
const fileRoute = 'POST /v2/issuer/claims/{claim_id}/file';

interface ImportSetting {
  readonly name: string;
  readonly fileMode: 'none' | 'chargeback';
  readonly sandboxFlags: readonly string[];
  readonly goal?: number;
}

const importSettings: readonly ImportSetting[] = [
  { name: 'no refusals', fileMode: 'none', sandboxFlags: [] },
  { name: 'sporadic 503s on every route, 1%', fileMode: 'none', sandboxFlags: ['--fail-rate', '0.01'], goal: 0.9 },
  { name: 'sporadic 503s on every route, 5%', fileMode: 'none', sandboxFlags: ['--fail-rate', '0.05'], goal: 0.9 },
  {
    name: 'only filing refused, 10% of its requests',
    fileMode: 'chargeback',
    sandboxFlags: ['--fail-rate', '0.1', '--fault-route', fileRoute],
    goal: 0.9,
  },
];

const faultFlags = (setting: ImportSetting): string[] => seededFaultFlags(latencyMs, seed, ...setting.sandboxFlags);

/** Every claim created (and filed, with filing) once: otherwise claims/s would not mean what it says. */
function checkEveryClaim(run: ImportRun, claims: number, fileMode: string): void {
  const done = fileMode === 'none' ? run.outcomes.created : run.outcomes.filed;
  if (done !== claims)
    throw new Error(
      `refusals bench: expected ${claims} claims ${fileMode === 'none' ? 'created' : 'filed'}, got outcomes ${JSON.stringify(run.outcomes)}`,
    );
}

const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;

async function importRows(context: BenchContext, claims: number): Promise<BenchRow[]> {
  const input = join(context.workDir, 'refusals.csv');
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  const recorded = new Map<string, RequestSequence[]>();
  const rows: BenchRow[] = [];
  for (const [index, setting] of importSettings.entries()) {
    let sequences = recorded.get(setting.fileMode);
    if (sequences === undefined) {
      context.log(`refusals: recording the requests of a fault-free import (--file-mode ${setting.fileMode})`);
      sequences = await recordImport(context, input, setting.fileMode, concurrency);
      recorded.set(setting.fileMode, sequences);
    }
    const flags = faultFlags(setting);
    context.log(`refusals: import, ${setting.name} (sandbox ${flags.join(' ')})`);
    const ours = await importIntoSandbox(context, {
      name: `import-${index}`,
      input,
      sandboxFlags: flags,
      concurrency,
      importFlags: ['--file-mode', setting.fileMode],
    });
    checkEveryClaim(ours, claims, setting.fileMode);
    context.log(`refusals: anchor, ${setting.name}`);
    const anchor = await replayInSandbox(context, `anchor-${index}`, flags, sequences, concurrency);
    const figure = claims / ours.sendingSeconds;
    const baseline = claims / anchor.sendingSeconds;
    const ratio = figure / baseline;
    rows.push({
      benchmark: `Import, ${setting.name} (${claims.toLocaleString('en-US')} claims${setting.fileMode === 'none' ? '' : ', with filing'})`,
      figure: `${figure.toFixed(1)} claims/s`,
      baseline: `anchor client: ${baseline.toFixed(1)} claims/s`,
      ratio,
      ...(setting.goal === undefined ? {} : { goal: `>= ${setting.goal}`, met: ratio >= setting.goal }),
      note:
        `${setting.goal === undefined ? 'informational; ' : ''}sandbox ${flags.join(' ')}; --concurrency ${concurrency}; ` +
        `import: ${ours.requests} requests, 503s ${ours.answered503} (${percent(ours.answered503, ours.requests)}), sending ${ours.sendingSeconds.toFixed(2)} s; ` +
        `anchor (the same ${sequences.length} claims' recorded requests, ${concurrency} workers, each 503 waits its Retry-After): ${anchor.requests} requests, ${anchor.refused} refused, ${anchor.sendingSeconds.toFixed(2)} s`,
    });
  }
  return rows;
}

async function capacityRow(context: BenchContext): Promise<BenchRow> {
  const claims = context.quick ? capacity.claims.quick : capacity.claims.full;
  const input = join(context.workDir, 'capacity.csv');
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  const flags = [
    '--capacity',
    String(capacity.limit),
    '--latency-ms',
    String(latencyMs),
    '--retry-after-seconds',
    '1',
    '--seed',
    String(seed),
  ];
  context.log(
    `refusals: import of ${claims} claims at --concurrency ${capacity.concurrency} against sandbox ${flags.join(' ')}`,
  );
  const ours = await importIntoSandbox(context, {
    name: 'capacity',
    input,
    sandboxFlags: flags,
    concurrency: capacity.concurrency,
  });
  checkEveryClaim(ours, claims, 'none');
  const limit = capacity.limit / (latencyMs / 1000);
  const figure = claims / ours.sendingSeconds;
  const ratio = figure / limit;
  const refusedShare = ours.answered503 / ours.requests;
  return {
    benchmark: `Import against a service holding ${capacity.limit} at once, --concurrency ${capacity.concurrency} (${claims.toLocaleString('en-US')} claims)`,
    figure: `${figure.toFixed(1)} claims/s; 503s ${percent(ours.answered503, ours.requests)}`,
    baseline: `capacity ${capacity.limit} / ${latencyMs} ms: ${limit.toFixed(0)} claims/s`,
    ratio,
    goal: `>= ${capacity.goal} and 503s <= ${100 * capacity.refusedShare}%`,
    met: ratio >= capacity.goal && refusedShare <= capacity.refusedShare,
    note: `sandbox ${flags.join(' ')}; ${ours.requests} requests, ${ours.answered503} answered 503 (every place taken); sending ${ours.sendingSeconds.toFixed(2)} s`,
  };
}

interface WithdrawNight {
  readonly journal: string;
  readonly url: string;
}

/** A fresh sandbox, a fault-free import of `input` into it, then the faults: the night a withdraw (or its anchor) takes back. */
async function withNight<Result>(
  context: BenchContext,
  name: string,
  input: string,
  faults: Readonly<Record<string, unknown>> | undefined,
  body: (night: WithdrawNight, sandboxUrl: string) => Promise<Result>,
  via?: (url: string) => Promise<{ url: string; done: () => Promise<void> }>,
): Promise<Result> {
  const file = (suffix: string) => join(context.workDir, `${name}.${suffix}`);
  return withSandbox(
    { cliBin: context.sandboxCliBin, dbFile: file('sandbox.db'), flags: ['--control'] },
    async (sandbox) => {
      const front = via === undefined ? { url: sandbox.url, done: async () => {} } : await via(sandbox.url);
      try {
        const { journal } = await importJob(context, front.url, { name, input, fileMode: 'none', concurrency });
        if (faults !== undefined) await setSandboxFaults(sandbox.url, faults);
        return await body({ journal, url: front.url }, sandbox.url);
      } finally {
        await front.done();
      }
    },
  );
}

async function withdrawOnce(context: BenchContext, name: string, night: WithdrawNight): Promise<WithdrawRun> {
  const args = [
    night.journal,
    '--journal',
    join(context.workDir, `${name}.undo.sqlite`),
    '--results',
    join(context.workDir, `${name}.undo.csv`),
    '--concurrency',
    String(withdrawSetting.concurrency),
  ];
  return runWithdrawTimed({
    cliBin: context.cliBin,
    args,
    baseUrl: night.url,
    apiKey: benchApiKey,
    cwd: context.workDir,
  });
}

async function withdrawRow(context: BenchContext, claims: number): Promise<BenchRow> {
  const input = join(context.workDir, 'withdraw.csv');
  await writeDisputesCsv(input, plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  const faults = {
    seed,
    failRate: withdrawSetting.failRate,
    latencyMs: withdrawSetting.latencyMs,
    retryAfterSeconds: 1,
  };
  context.log('refusals: recording the requests of a fault-free withdraw');
  let recorder: Awaited<ReturnType<typeof startRecorder>> | undefined;
  const viaRecorder = async (url: string) => {
    recorder = await startRecorder(url);
    const started = recorder;
    return { url: started.url, done: async () => started.close() };
  };
  const sequences = await withNight(
    context,
    'withdraw-record',
    input,
    undefined,
    async (night) => {
      recorder?.reset();
      await withdrawOnce(context, 'withdraw-record', night);
      return recorder?.sequences() ?? [];
    },
    viaRecorder,
  );
  context.log(`refusals: withdraw of ${claims} claims, 5% sporadic 503s`);
  const ours = await withNight(context, 'withdraw-ours', input, faults, async (night) =>
    withdrawOnce(context, 'withdraw-ours', night),
  );
  if (ours.outcomes.withdrawn !== claims)
    throw new Error(`refusals bench: expected ${claims} cases withdrawn, got ${JSON.stringify(ours.outcomes)}`);
  context.log('refusals: withdraw anchor, 5% sporadic 503s');
  const anchor = await withNight(context, 'withdraw-anchor', input, faults, async (_night, sandboxUrl) =>
    replay(sandboxUrl, sequences, withdrawSetting.concurrency),
  );
  const figure = claims / ours.sendingSeconds;
  const baseline = claims / anchor.sendingSeconds;
  const ratio = figure / baseline;
  return {
    benchmark: `Withdraw, sporadic 503s on every route, 5% (${claims.toLocaleString('en-US')} claims)`,
    figure: `${figure.toFixed(1)} claims/s`,
    baseline: `anchor client: ${baseline.toFixed(1)} claims/s`,
    ratio,
    goal: `>= ${withdrawSetting.goal}`,
    met: ratio >= withdrawSetting.goal,
    note:
      `sandbox faults ${JSON.stringify(faults)} after a fault-free import; --concurrency ${withdrawSetting.concurrency}; ` +
      `withdraw: ${ours.requests} requests, 503s ${ours.answered503} (${percent(ours.answered503, ours.requests)}), sending ${ours.sendingSeconds.toFixed(2)} s; ` +
      `anchor (the recorded retrieves and withdrawals of ${sequences.length} claims): ${anchor.requests} requests, ${anchor.refused} refused, ${anchor.sendingSeconds.toFixed(2)} s`,
  };
}

async function run(context: BenchContext): Promise<BenchRow[]> {
  const claims = context.quick ? claimsFor.quick : claimsFor.full;
  return [...(await importRows(context, claims)), await capacityRow(context), await withdrawRow(context, claims)];
}

export const benchCase: BenchCase = { name: 'refusals', run };
