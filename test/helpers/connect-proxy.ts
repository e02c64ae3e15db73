import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A real forwarding proxy on loopback, as a bank's: it answers CONNECT host:port with
 * a tunnel, optionally only with Basic credentials (407 with a realm otherwise) or never (403).
 * It counts what passes: each tunnel's target and the local port of its connection to the target,
 * so a test can tell that every connection the service saw came through it.
 */
export interface ConnectProxy {
  /** With the credentials the proxy requires, when it requires some. */
  readonly url: string;
  /** Without credentials. */
  readonly address: string;
  readonly tunnels: { authority: string; upstreamPort: number }[];
  readonly refused: { status: number; authorization: string | undefined }[];
  close(): Promise<void>;
}

export interface ConnectProxyOptions {
  /** `user:password` the proxy requires. */
  credentials?: string;
  realm?: string;
  /** Refuse every tunnel with 403. */
  forbid?: boolean;
}

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const tunnels: ConnectProxy['tunnels'] = [];
  const refused: ConnectProxy['refused'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_request, response) => {
    response.writeHead(405).end('CONNECT only\n');
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const authorization = request.headers['proxy-authorization'];
    const expected =
      options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
    if (options.forbid === true || (expected !== undefined && authorization !== expected)) {
      const status = options.forbid === true ? 403 : 407;
      refused.push({ status, authorization });
      const challenge = status === 407 ? `Proxy-Authenticate: Basic realm="${options.realm ?? 'bank-proxy'}"\r\n` : '';
      client.end(
        `HTTP/1.1 ${status} ${status === 407 ? 'Proxy Authentication Required' : 'Forbidden'}\r\n${challenge}Content-Length: 0\r\n\r\n`,
      );
      return;
    }
    const authority = request.url ?? '';
    const [host = '', port = ''] = authority.split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
      tunnels.push({ authority, upstreamPort: upstream.localPort ?? 0 });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const auth = options.credentials === undefined ? '' : `${options.credentials}@`;
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    address: `http://127.0.0.1:${port}`,
    tunnels,
    refused,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
