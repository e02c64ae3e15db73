import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTls } from '../../../src/api/network/tls-material.js';
import {
  DocumentServerUnavailableError,
  fetchEvidenceLink,
  readEvidenceObject,
  type LinkSettings,
} from '../../../src/evidence/remote/index.js';
import { ObjectStore, ObjectStoreCredentialsError } from '../../../src/storage/object-store.js';
import { storeSettingsOf } from '../../../src/storage/store-settings.js';
import { makeCertificates, type Certificates } from '../../helpers/certificates.js';
import { startSwiftS3, type SwiftS3 } from '../../helpers/swift-s3.js';

/**
 * Remote evidence read as files are: an object's credentials refused mid-run stop the run
 * (thrown), never a row problem for every row left; a document server failing on its side is
 * asked again, at most 3 times, and a 4xx never.
 */

let swift: SwiftS3;
let certificates: Certificates;
let server: Server;
const seen: string[] = [];
let flaky = 0;
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64)]);

beforeAll(async () => {
  swift = await startSwiftS3();
  const setup = swift.client();
  await setup.send(new CreateBucketCommand({ Bucket: 'bank-evidence' }));
  await setup.send(new PutObjectCommand({ Bucket: 'bank-evidence', Key: 'night/scan.png', Body: png }));
  setup.destroy();
  certificates = await makeCertificates();
  server = createServer(
    { cert: await certificates.read(certificates.serverPem), key: await certificates.read(certificates.serverKey) },
    (request, response) => {
      seen.push(request.url ?? '');
      if (request.url === '/flaky' && ++flaky <= 2) response.writeHead(503).end();
      else if (request.url === '/flaky' || request.url === '/scan.png') response.writeHead(200).end(png);
      else if (request.url === '/down') response.writeHead(502).end();
      else if (request.url === '/busy') response.writeHead(429).end();
      else if (request.url === '/private') response.writeHead(403).end();
      else response.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}, 90_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await certificates.remove();
  await swift.stop();
});

const store = (secretAccessKey: string) =>
  new ObjectStore(storeSettingsOf({ AWS_ENDPOINT_URL_S3: swift.endpoint, AWS_REGION: 'us-east-1' }), {
    credentials: { accessKeyId: swift.accessKeyId, secretAccessKey },
  });

describe('an evidence object', () => {
  it('is read and checked as a file is', async () => {
    const objects = store(swift.secretAccessKey);
    const read = await readEvidenceObject(objects, { bucket: 'bank-evidence', key: 'night/scan.png' }, 'scan.png');
    expect(read).toMatchObject({ ok: true, contentType: 'image/png', size: png.length });
    objects.close();
  });

  it('whose credentials the store refuses (a secret rotated, a token expired) stops the run: thrown, not a row problem', async () => {
    const objects = store('rotated-meanwhile');
    await expect(
      readEvidenceObject(objects, { bucket: 'bank-evidence', key: 'night/scan.png' }, 'scan.png'),
    ).rejects.toBeInstanceOf(ObjectStoreCredentialsError);
    objects.close();
  });
});

describe('an evidence link', () => {
  const settings = async (): Promise<LinkSettings> => ({
    timeoutMs: 5000,
    maxRedirects: 3,
    attempts: 3,
    backoffMs: () => 1,
    ca: resolveTls({ ca: await certificates.read(certificates.caPem) }).options?.ca,
  });
  const hosts = () => new Set([`localhost:${String((server.address() as AddressInfo).port)}`]);
  const link = (path: string) => `https://localhost:${String((server.address() as AddressInfo).port)}${path}`;

  it('is asked again when its server fails on its side, and read when it recovers', async () => {
    const before = seen.length;
    expect(await fetchEvidenceLink(link('/flaky'), hosts(), await settings())).toMatchObject({ ok: true });
    expect(seen.slice(before)).toEqual(['/flaky', '/flaky', '/flaky']);
  });

  it('stops the run after 3 attempts at a server that stays down (exit 3: run again)', async () => {
    for (const path of ['/down', '/busy']) {
      const before = seen.length;
      await expect(fetchEvidenceLink(link(path), hosts(), await settings())).rejects.toThrow(
        DocumentServerUnavailableError,
      );
      expect(seen.slice(before)).toEqual([path, path, path]);
    }
  });

  it('is the row problem of a 4xx, asked once: not found for a 404, unreadable for a refusal', async () => {
    const before = seen.length;
    expect(await fetchEvidenceLink(link('/gone'), hosts(), await settings())).toMatchObject({
      ok: false,
      code: 'evidence_not_found',
      message: `evidence ${link('/gone')}: expected the document, got HTTP 404 from ${[...hosts()][0] ?? ''}`,
    });
    expect(await fetchEvidenceLink(link('/private'), hosts(), await settings())).toMatchObject({
      ok: false,
      code: 'evidence_unreadable',
    });
    expect(seen.slice(before)).toEqual(['/gone', '/private']);
  });
});
