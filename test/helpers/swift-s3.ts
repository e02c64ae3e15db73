import { S3Client } from '@aws-sdk/client-s3';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A real S3-compatible store on loopback: OpenStack Swift (Debian's packages) with its own S3 API
 * middleware, which checks every request's signature itself (AWS Signature Version 4): a request
 * signed with a wrong secret is refused by Swift, never by our code. Four processes (account,
 * container, object, proxy) in a temporary folder, one device, one replica; `tempauth` holds the
 * one user, whose S3 access key is `test:tester`.
 */
export interface SwiftS3 {
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** A client of the test's own, to make buckets and put objects: the caller destroys it. */
  client(): S3Client;
  /**
   * The environment a CLI process reads this store from, as a user's job would set it: the
   * endpoint, the region and the key for the SDK's default chain, and nothing of the machine's
   * (no shared credentials file under `home`, no instance metadata asked).
   */
  cliEnvironment(home: string, options?: { secret?: string; endpoint?: string }): Record<string, string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

const servers = ['account', 'container', 'object'] as const;

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined && child.spawnargs[0] !== 'memcached') process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // Gone already.
  }
}

/** Swift's health check answers; over TLS its certificate is not checked here (the tests check it). */
async function healthy(endpoint: string, tls: boolean): Promise<{ ok: boolean }> {
  if (!tls) return fetch(`${endpoint}/healthcheck`);
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    const answer = await request(`${endpoint}/healthcheck`, { dispatcher });
    await answer.body.dump();
    return { ok: answer.statusCode === 200 };
  } finally {
    await dispatcher.close();
  }
}

export interface SwiftS3Options {
  /** Serve the S3 API over TLS with this certificate and key (PEM files): `https://localhost:port`. */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  /**
   * Speed, for the benchmark: a memcached of its own (Debian's `memcached`), where Swift keeps the
   * account's and container's facts and tempauth its tokens instead of asking for them on every
   * request, and this many worker processes per server (default one, in the parent).
   */
  readonly fast?: { readonly workers: number };
}

export async function startSwiftS3(options: SwiftS3Options = {}): Promise<SwiftS3> {
  const root = await mkdtemp(join(tmpdir(), 'bulk-disputes-swift-'));
  const etc = join(root, 'etc');
  const devices = join(root, 'srv');
  await mkdir(join(devices, 'd1'), { recursive: true });
  await mkdir(etc, { recursive: true });
  const ports = {
    account: await freePort(),
    container: await freePort(),
    object: await freePort(),
    proxy: await freePort(),
    memcached: options.fast === undefined ? 0 : await freePort(),
  };
  // With workers, Swift's parent drops to `user` before forking them (as root too, which it asks be said).
  const workers = [`workers = ${String(options.fast?.workers ?? 0)}`, `user = ${userInfo().username}`].join('\n');
  await writeFile(
    join(etc, 'swift.conf'),
    '[swift-hash]\nswift_hash_path_suffix = bulk-disputes\nswift_hash_path_prefix = tests\n[storage-policy:0]\nname = gold\ndefault = yes\n',
  );
  for (const server of servers) {
    const builder = join(etc, `${server}.builder`);
    execFileSync('swift-ring-builder', [builder, 'create', '0', '1', '1'], { stdio: 'ignore' });
    execFileSync('swift-ring-builder', [builder, 'add', `r1z1-127.0.0.1:${String(ports[server])}/d1`, '1'], {
      stdio: 'ignore',
    });
    execFileSync('swift-ring-builder', [builder, 'rebalance'], { stdio: 'ignore' });
    await writeFile(
      join(etc, `${server}-server.conf`),
      [
        '[DEFAULT]',
        'bind_ip = 127.0.0.1',
        `bind_port = ${String(ports[server])}`,
        `devices = ${devices}`,
        'mount_check = false',
        'disable_fallocate = true',
        `swift_dir = ${etc}`,
        workers,
        '[pipeline:main]',
        `pipeline = ${server}-server`,
        `[app:${server}-server]`,
        `use = egg:swift#${server}`,
        '',
      ].join('\n'),
    );
  }
  const secretAccessKey = 'testing-secret';
  await writeFile(
    join(etc, 'proxy-server.conf'),
    [
      '[DEFAULT]',
      'bind_ip = 127.0.0.1',
      `bind_port = ${String(ports.proxy)}`,
      `swift_dir = ${etc}`,
      workers,
      ...(options.tls === undefined
        ? []
        : [`cert_file = ${options.tls.certFile}`, `key_file = ${options.tls.keyFile}`]),
      '[pipeline:main]',
      'pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy proxy-logging proxy-server',
      '[app:proxy-server]',
      'use = egg:swift#proxy',
      'account_autocreate = true',
      '[filter:s3api]',
      'use = egg:swift#s3api',
      'location = us-east-1',
      '[filter:tempauth]',
      'use = egg:swift#tempauth',
      `user_test_tester = ${secretAccessKey} .admin`,
      // tempauth keeps its tokens through the cache; no memcached runs, so each request is checked afresh.
      '[filter:cache]',
      'use = egg:swift#memcache',
      ...(options.fast === undefined ? [] : [`memcache_servers = 127.0.0.1:${String(ports.memcached)}`]),
      ...['healthcheck', 'catch_errors', 'gatekeeper', 'proxy-logging', 'listing_formats', 'copy'].flatMap((filter) => [
        `[filter:${filter}]`,
        `use = egg:swift#${filter.replace('-', '_')}`,
      ]),
      '',
    ].join('\n'),
  );
  const memcached =
    options.fast === undefined
      ? []
      : [
          spawn('memcached', ['-l', '127.0.0.1', '-p', String(ports.memcached), '-U', '0', '-m', '64'], {
            stdio: 'ignore',
          }),
        ];
  const children: ChildProcess[] = [
    ...memcached,
    ...[...servers, 'proxy' as const].map((server) =>
      spawn(`swift-${server}-server`, [join(etc, `${server}-server.conf`)], {
        env: { ...process.env, SWIFT_CONF_FILE: join(etc, 'swift.conf') },
        stdio: 'ignore',
        // Its own process group: a server with workers forks them, and they go with it.
        detached: true,
      }),
    ),
  ];
  const endpoint =
    options.tls === undefined ? `http://127.0.0.1:${String(ports.proxy)}` : `https://localhost:${String(ports.proxy)}`;
  const stop = async () => {
    for (const child of children) killGroup(child);
    await rm(root, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await healthy(endpoint, options.tls !== undefined).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`test: Swift did not answer on ${endpoint} within 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const accessKeyId = 'test:tester';
  const client = () =>
    new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
      // Swift answers 503 while its servers are busy starting on a loaded machine: asked again.
      maxAttempts: 8,
    });
  const cliEnvironment = (home: string, options: { secret?: string; endpoint?: string } = {}) => ({
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: options.secret ?? secretAccessKey,
    BULK_DISPUTES_S3_ENDPOINT: options.endpoint ?? endpoint,
    AWS_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    HOME: home,
  });
  return { endpoint, accessKeyId, secretAccessKey, client, cliEnvironment, stop };
}
