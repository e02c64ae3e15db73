import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** The Debian package's binary (.ci/run installs it when missing): a test that needs it fails without it, never skips. */
export const pushgatewayBin = '/usr/bin/prometheus-pushgateway';

export interface Pushgateway {
  url: string;
  /** The gateway's `/metrics`, parsed: one sample per series, with its labels. */
  samples(): Promise<Sample[]>;
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A bcrypt hash of `gateway-secret-7` for the user `metrics`, made once with `htpasswd -nbB -C 5`
 * (apache2-utils): the gateway's web config takes only hashes.
 */
export const gatewayUser = { user: 'metrics', password: 'gateway-secret-7' };
const gatewayUserHash = '$2y$05$9Ogp2fG44PrIeyENxGTf3utpaHGsTCptiqO2/AV/4fj0oAWEdBPZa';

/** A free loopback port: one the system gave and took back. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The real Pushgateway on a free loopback port, stopped when the test ends; `basicAuth`: it asks for `gatewayUser`. */
export async function startPushgateway(options: { basicAuth?: boolean } = {}): Promise<Pushgateway> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-pushgateway-'));
  // Debian's build persists to /var/lib/prometheus by default: every gateway started there would share one store.
  const args = [`--web.listen-address=127.0.0.1:${port}`, `--persistence.file=${join(dir, 'pushgateway.data')}`];
  if (options.basicAuth === true) {
    const config = join(dir, 'web.yml');
    await writeFile(config, `basic_auth_users:\n  ${gatewayUser.user}: '${gatewayUserHash}'\n`);
    args.push(`--web.config.file=${config}`);
  }
  const child = spawn(pushgatewayBin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  onTestFinished(async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${gatewayUser.user}:${gatewayUser.password}`).toString('base64')}`;
  const headers = options.basicAuth === true ? { authorization } : undefined;
  await waitUntilReady(`${url}/-/ready`, headers, () => log);
  return {
    url,
    samples: async () => parseSamples(await (await fetch(`${url}/metrics`, { headers })).text()),
  };
}

async function waitUntilReady(url: string, headers: Record<string, string> | undefined, log: () => string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answered = await fetch(url, { headers }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`the pushgateway did not answer within 15 s:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Prometheus text format, samples only: `name{label="value",…} value`. */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name = '', value = ''] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[name] = value.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** The samples of one metric whose labels include `labels`. */
export function find(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}
