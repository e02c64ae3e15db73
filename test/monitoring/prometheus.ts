import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { z } from 'zod';
import { freePort } from '../helpers/pushgateway.js';

/**
 * A real Prometheus (the Debian package's binary, which .ci/run installs with promtool: a test that
 * needs it fails without it, never skips) scraping one Pushgateway the way docs/monitoring.md asks
 * (`honor_labels: true`), with the rules it is given, every second.
 */
export const prometheusBin = '/usr/bin/prometheus';

export interface Prometheus {
  url: string;
  /** `GET /api/v1/alerts`: the alerts pending or firing now. */
  alerts(): Promise<Alert[]>;
  /** `GET /api/v1/query`: an instant vector's samples. */
  query(expr: string): Promise<VectorSample[]>;
  /** What Prometheus wrote on stderr, its last lines: for a failure's message. */
  logTail(): string;
}

const alertSchema = z.object({
  labels: z.record(z.string(), z.string()),
  annotations: z.record(z.string(), z.string()),
  state: z.string(),
  value: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;
const alertsAnswer = z.object({ status: z.literal('success'), data: z.object({ alerts: z.array(alertSchema) }) });

const vectorSampleSchema = z.object({
  metric: z.record(z.string(), z.string()),
  value: z.tuple([z.number(), z.string()]),
});
export type VectorSample = z.infer<typeof vectorSampleSchema>;
const queryAnswer = z.object({
  status: z.literal('success'),
  data: z.object({ resultType: z.literal('vector'), result: z.array(vectorSampleSchema) }),
});

/** Prometheus on a free loopback port, its config, rules and TSDB in a temporary folder; stopped when the test ends. */
export async function startPrometheus(options: { gatewayUrl: string; rules: string }): Promise<Prometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-prometheus-'));
  const rulesFile = join(dir, 'rules.yml');
  const configFile = join(dir, 'prometheus.yml');
  await writeFile(rulesFile, options.rules);
  await writeFile(configFile, configOf(new URL(options.gatewayUrl).host, rulesFile));
  const port = await freePort();
  const child = spawn(
    prometheusBin,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  onTestFinished(async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  const logTail = () => log;
  await pollUntil('Prometheus answers /-/ready', 20_000, async () => {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    return ready ? true : { lastSeen: `not ready; its log:\n${logTail()}` };
  });
  return {
    url,
    alerts: async () => alertsAnswer.parse(await (await fetch(`${url}/api/v1/alerts`)).json()).data.alerts,
    query: async (expr) =>
      queryAnswer.parse(
        await (await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr }).toString()}`)).json(),
      ).data.result,
    logTail,
  };
}

/** One scrape job for the gateway; `honor_labels` keeps the pushed `job` instead of renaming it `exported_job`. */
function configOf(gatewayHost: string, rulesFile: string): string {
  return [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'rule_files:',
    `  - ${JSON.stringify(rulesFile)}`,
    'scrape_configs:',
    '  - job_name: pushgateway',
    '    honor_labels: true',
    '    static_configs:',
    `      - targets: [${JSON.stringify(gatewayHost)}]`,
    '',
  ].join('\n');
}

/**
 * Calls `probe` every 250 ms until it returns a value other than `{ lastSeen }`, and returns it;
 * after `timeoutMs`, fails saying what it waited for and what it last saw.
 */
export async function pollUntil<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | { lastSeen: string }>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await probe();
    if (!isLastSeen(outcome)) return outcome;
    if (Date.now() > deadline)
      throw new Error(`waited ${timeoutMs / 1000} s for: ${what}; last saw: ${outcome.lastSeen}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function isLastSeen(value: unknown): value is { lastSeen: string } {
  return typeof value === 'object' && value !== null && 'lastSeen' in value;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
