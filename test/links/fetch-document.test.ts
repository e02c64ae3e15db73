import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DocumentFetchError,
  DocumentNotAllowedError,
  fetchDocument,
  type FetchLimits,
} from '../../src/links/fetch-document.js';
import { forbiddenReason } from '../../src/links/forbidden-addresses.js';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { routeFor, type ProxySettings } from '../../src/api/network/proxy-route.js';

/** The proxy the service's settings choose for a URL, as the evidence reader passes it. */
const viaRoute = (settings: ProxySettings) => (url: URL) => {
  const route = routeFor(url, settings);
  return route.kind === 'proxy' ? route.proxy : undefined;
};

/** A port nothing listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Documents behind HTTPS links, from a document server on loopback with the bank's own CA: only
 * from a listed host, never to where a link may not go (loopback or private unless listed,
 * metadata never), redirects checked each time, a size cap before the body is read on. The
 * server logs every request it gets: a refused link is one it never saw.
 */

let certificates: Certificates;
let server: Server;
let base: string;
const seen: string[] = [];
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

beforeAll(async () => {
  certificates = await makeCertificates();
  server = createServer(
    { cert: await certificates.read(certificates.serverPem), key: await certificates.read(certificates.serverKey) },
    (request, response) => {
      seen.push(`${request.headers.host ?? ''}${request.url ?? ''}`);
      const port = (server.address() as AddressInfo).port;
      const to = (location: string) => {
        response.writeHead(302, { location }).end();
      };
      if (request.url === '/doc/8812') response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      else if (request.url === '/moved') to('/doc/8812');
      else if (request.url === '/to-loopback') to(`https://127.0.0.1:${String(port)}/secret`);
      else if (request.url === '/to-metadata') to('https://169.254.169.254/latest/meta-data/');
      else if (request.url === '/loop') to('/loop');
      else if (request.url === '/big') response.writeHead(200).end(Buffer.alloc(4096, 1));
      else response.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${String((server.address() as AddressInfo).port)}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await certificates.remove();
});

const limits = async (hosts: string[] = [new URL(base).host]): Promise<FetchLimits> => ({
  allowedHosts: new Set(hosts),
  maxBytes: 1024,
  timeoutMs: 5000,
  maxRedirects: 3,
  ca: await certificates.read(certificates.caPem),
});

describe('a document behind an HTTPS link', () => {
  it('is fetched from a listed host, through its redirects, trusting the bank CA given', async () => {
    const fetched = await fetchDocument(`${base}/moved`, await limits());
    expect(fetched.bytes.equals(pdf)).toBe(true);
    expect(fetched.url).toBe(`${base}/doc/8812`);
    expect(fetched.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is refused, never fetched, from a host not listed, over plain http, or at loopback, private or metadata addresses', async () => {
    const before = seen.length;
    const port = new URL(base).port;
    for (const link of [
      `https://127.0.0.1:${port}/doc/8812`,
      `http://localhost:${port}/doc/8812`,
      'http://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/doc',
      `https://user:secret@localhost:${port}/doc/8812`,
    ])
      await expect(fetchDocument(link, await limits()), link).rejects.toBeInstanceOf(DocumentNotAllowedError);
    // Listed, the metadata address is still refused before connecting.
    await expect(fetchDocument('https://169.254.169.254/latest/', await limits(['169.254.169.254']))).rejects.toThrow(
      /link-local, metadata/,
    );
    expect(seen.slice(before)).toEqual([]);
  });

  it('is refused where a listed host redirects to a host not listed: the second server never sees a request', async () => {
    const before = seen.length;
    await expect(fetchDocument(`${base}/to-loopback`, await limits())).rejects.toThrow(
      /expected a host the mapping's evidence_sources\.hosts lists, got 127\.0\.0\.1:\d+ \(a redirect to https:\/\/127\.0\.0\.1:\d+\/secret\): nothing was fetched from it/,
    );
    await expect(fetchDocument(`${base}/to-metadata`, await limits())).rejects.toBeInstanceOf(DocumentNotAllowedError);
    expect(seen.slice(before)).toEqual([
      `localhost:${new URL(base).port}/to-loopback`,
      `localhost:${new URL(base).port}/to-metadata`,
    ]);
  });

  it('is refused on a port the mapping does not list for its host: a bare host is port 443 only', async () => {
    const before = seen.length;
    await expect(fetchDocument(`${base}/doc/8812`, await limits(['localhost']))).rejects.toThrow(
      /expected a host the mapping's evidence_sources\.hosts lists, got localhost:\d+: nothing was fetched/,
    );
    expect(seen.slice(before)).toEqual([]);
  });

  it('goes through the proxy the settings choose, its tunnel asked for the checked address, TLS still checking the name', async () => {
    const proxy = await startConnectProxy();
    try {
      const port = new URL(base).port;
      const fetched = await fetchDocument(`${base}/moved`, {
        ...(await limits()),
        proxyFor: viaRoute({ env: { HTTPS_PROXY: proxy.address } }),
      });
      expect(fetched.bytes.equals(pdf)).toBe(true);
      // Both requests (the redirect and the document) through a tunnel to the address, never to the name.
      expect(proxy.tunnels.map((tunnel) => tunnel.authority)).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
      // NO_PROXY read as for the service: straight there, the proxy sees nothing.
      await fetchDocument(`${base}/doc/8812`, {
        ...(await limits()),
        proxyFor: viaRoute({ env: { HTTPS_PROXY: proxy.address, NO_PROXY: 'localhost' } }),
      });
      expect(proxy.tunnels).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('says which failures may pass if asked again', async () => {
    const failure = (await fetchDocument(`${base}/none`, await limits()).catch(
      (error: unknown) => error,
    )) as DocumentFetchError;
    expect(failure).toMatchObject({ kind: 'status', status: 404, transient: false });
    const closed = `https://localhost:${String(await closedPort())}/doc`;
    const refused = (await fetchDocument(closed, await limits([new URL(closed).host])).catch(
      (error: unknown) => error,
    )) as DocumentFetchError;
    expect(refused).toMatchObject({ kind: 'transport', transient: true });
  });

  it('stops at the redirect limit and at the size cap', async () => {
    await expect(fetchDocument(`${base}/loop`, await limits())).rejects.toThrow(/more than 3 redirects/);
    await expect(fetchDocument(`${base}/big`, await limits())).rejects.toThrow(/expected at most 1024 bytes, got more/);
    await expect(fetchDocument(`${base}/none`, await limits())).rejects.toBeInstanceOf(DocumentFetchError);
  });

  it('tells the addresses apart as the rules say', () => {
    expect(forbiddenReason('169.254.169.254', true)).toMatch(/metadata/);
    expect(forbiddenReason('::ffff:169.254.169.254', true)).toMatch(/metadata/);
    expect(forbiddenReason('fe80::1', true)).toMatch(/link-local/);
    expect(forbiddenReason('127.0.0.1', false)).toMatch(/loopback or private/);
    expect(forbiddenReason('::ffff:10.0.0.7', false)).toMatch(/loopback or private/);
    expect(forbiddenReason('192.168.1.20', true)).toBeUndefined();
    expect(forbiddenReason('203.0.113.9', false)).toBeUndefined();
  });
});
