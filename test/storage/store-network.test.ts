import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { ObjectStore } from '../../src/storage/object-store.js';
import type { StoreNetwork } from '../../src/storage/store-connection.js';
import { storeSettingsOf } from '../../src/storage/store-settings.js';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { startSwiftS3, type SwiftS3 } from '../helpers/swift-s3.js';

/**
 * The way to a store inside a bank's network: the claims service's proxy (a CONNECT tunnel, as
 * a bank's forwarding proxy opens one) and its private CA, for a real store that checks
 * signatures itself (Swift's S3 API, over TLS with a certificate from the test CA).
 */

let certificates: Certificates;
let plain: SwiftS3;
let tls: SwiftS3;
const address = { bucket: 'disputes', key: 'exports/night.csv' };
const body = 'dispute_ref,amount\nD1,10.00\n';

async function fill(store: SwiftS3, ca?: Buffer): Promise<void> {
  const setup = new S3Client({
    endpoint: store.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
    ...(ca === undefined ? {} : { requestHandler: { httpsAgent: new Agent({ ca }) } }),
  });
  await setup.send(new CreateBucketCommand({ Bucket: address.bucket }));
  await setup.send(new PutObjectCommand({ Bucket: address.bucket, Key: address.key, Body: body }));
  setup.destroy();
}

beforeAll(async () => {
  certificates = await makeCertificates();
  [plain, tls] = await Promise.all([
    startSwiftS3(),
    startSwiftS3({ tls: { certFile: certificates.serverPem, keyFile: certificates.serverKey } }),
  ]);
  await fill(plain);
  await fill(tls, await readFile(certificates.caPem));
}, 90_000);

afterAll(async () => {
  await Promise.all([plain.stop(), tls.stop()]);
  await certificates.remove();
});

function storeOf(swift: SwiftS3, network: StoreNetwork = {}): ObjectStore {
  return new ObjectStore(storeSettingsOf({ BULK_DISPUTES_S3_ENDPOINT: swift.endpoint }), {
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    network,
  });
}

async function read(store: ObjectStore): Promise<string> {
  try {
    return await text(await store.open(await store.identify(address)));
  } finally {
    store.close();
  }
}

describe('a store behind the bank’s proxy', () => {
  it('is reached through the CONNECT tunnel the service’s proxy setting opens', async () => {
    const proxy = await startConnectProxy({ credentials: 'night:s3cret' });
    try {
      const proxyUrl = proxy.url;
      expect(await read(storeOf(plain, { proxy: proxyUrl }))).toBe(body);
      const port = new URL(plain.endpoint).port;
      expect(proxy.tunnels.map((tunnel) => tunnel.authority)).toContain(`127.0.0.1:${port}`);
    } finally {
      await proxy.close();
    }
  });

  it('goes direct when NO_PROXY names the store', async () => {
    const proxy = await startConnectProxy();
    try {
      const env = { HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '127.0.0.1' };
      expect(await read(storeOf(plain, { env }))).toBe(body);
      expect(proxy.tunnels).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('stops with exit 6, naming the proxy without its password, when the proxy refuses the tunnel', async () => {
    const proxy = await startConnectProxy({ credentials: 'night:s3cret' });
    try {
      const wrong = proxy.url.replace('s3cret', 'wrong');
      const failure = await read(storeOf(plain, { proxy: wrong })).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'OBJECT_STORE_PROXY' });
      expect(exitCodeFor(failure)).toBe(6);
      expect((failure as Error).message).toContain('407 to CONNECT');
      expect((failure as Error).message).not.toContain('wrong');
      expect((failure as Error).message).toContain('s3://disputes/exports/night.csv');
    } finally {
      await proxy.close();
    }
  });
});

describe('a store with a certificate from the bank’s CA', () => {
  it('is refused with exit 4, naming the store, when the CA is not given', async () => {
    const failure = await read(storeOf(tls)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'OBJECT_STORE_TLS_UNTRUSTED' });
    expect(exitCodeFor(failure)).toBe(4);
    expect((failure as Error).message).toContain(tls.endpoint);
    expect((failure as Error).message).toContain('--ca-file');
  });

  it('is read when the service’s CA file is given', async () => {
    expect(await read(storeOf(tls, { ca: await readFile(certificates.caPem) }))).toBe(body);
  });
});
