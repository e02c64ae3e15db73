import { access, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { defaultServerUrl, openApiText } from '../../api/openapi/document.js';
import { memoised } from '../../memo/memoised.js';

/**
 * The OpenAPI document and a page that renders it (docs/openapi.md), served without a key, as any
 * API's public reference is: `GET /openapi.json`, and `GET /docs`, Swagger UI from files the
 * package carries (nothing fetched from a CDN: docs/sandbox.md).
 * The copy served names this sandbox as its server, so that the page's "Try it out" and a client
 * generated from the served copy reach it.
 */

export const openApiPath = '/openapi.json';
export const docsPath = '/docs';

/** The page's own script: Swagger UI over the served document, no online validator badge. */
const pageScript = `window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({ url: '${openApiPath}', dom_id: '#api', deepLinking: true, validatorUrl: null, persistAuthorization: false });
});
`;

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Issuer Chargeback Claims Service: bulk-disputes sandbox</title>
<link rel="stylesheet" href="${docsPath}/swagger-ui.css">
<link rel="icon" type="image/png" href="${docsPath}/favicon-32x32.png">
</head>
<body>
<div id="api"></div>
<script src="${docsPath}/swagger-ui-bundle.js"></script>
<script src="${docsPath}/page.js"></script>
</body>
</html>
`;

/** The only files of Swagger UI served (scripts/copy-swagger-ui.js copies these): a fixed list, so no request names a path on disk. */
const swaggerFiles: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Everything the page loads is its own; scripts inline or from elsewhere are refused. */
const pageHeaders = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

type Body = { type: string; body: string | Buffer };

/** True when the request is one of these pages; the answer is then written here. */
export function servePublicPage(request: IncomingMessage, response: ServerResponse): boolean {
  // Two string tests before any parsing: every service request passes through here.
  const url = request.url ?? '';
  if (request.method !== 'GET' || !(url.startsWith(openApiPath) || url.startsWith(docsPath))) return false;
  const path = new URL(url, 'http://sandbox').pathname;
  const answer = answerFor(path, request);
  if (answer === undefined) return false;
  answer.then(
    ({ type, body }) => {
      response.writeHead(200, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-cache',
        ...pageHeaders,
      });
      response.end(body);
    },
    (error: unknown) => {
      const text = JSON.stringify({ message: `cannot serve ${path}: ${(error as Error).message}` });
      response.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    },
  );
  return true;
}

function answerFor(path: string, request: IncomingMessage): Promise<Body> | undefined {
  if (path === openApiPath)
    return Promise.resolve({ type: 'application/json', body: documentFor(serverUrlOf(request)) });
  if (path === docsPath || path === `${docsPath}/`)
    return Promise.resolve({ type: 'text/html; charset=utf-8', body: page });
  if (path === `${docsPath}/page.js`)
    return Promise.resolve({ type: 'text/javascript; charset=utf-8', body: pageScript });
  const name = path.startsWith(`${docsPath}/`) ? path.slice(docsPath.length + 1) : undefined;
  const type = name === undefined ? undefined : swaggerFiles[name];
  if (name === undefined || type === undefined) return undefined;
  return swaggerFile(name).then((body) => ({ type, body }));
}

/** The generated text per server address, made once each (a sandbox has one or two). */
const documentFor = memoised(16, (serverUrl: string) => openApiText(serverUrl));

/** The address the caller used: the Host header when it is a plain host[:port], else the default. */
function serverUrlOf(request: IncomingMessage): string {
  const host = request.headers.host ?? '';
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)) return defaultServerUrl;
  return `${(request.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http'}://${host}`;
}

const swaggerCache = new Map<string, Promise<Buffer>>();

/**
 * Swagger UI's files as the build copied them into the package (dist/swagger-ui/, beside the
 * compiled code): swagger-ui-dist itself is only a development dependency, so that an installed
 * bulk-disputes carries no install-time reporting (docs/development.md, "What the package
 * carries"). A checkout not built yet reads them from that development dependency.
 */
const builtSwaggerUi = fileURLToPath(new URL('../../../dist/swagger-ui/', import.meta.url));

async function swaggerFolder(): Promise<string> {
  if (
    await access(join(builtSwaggerUi, 'swagger-ui-bundle.js')).then(
      () => true,
      () => false,
    )
  )
    return builtSwaggerUi;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

async function swaggerFile(name: string): Promise<Buffer> {
  let file = swaggerCache.get(name);
  if (file === undefined) {
    file = swaggerFolder().then(async (folder) => readFile(join(folder, name)));
    swaggerCache.set(name, file);
    // A failed read is not kept: the next request tries again.
    void file.catch(() => swaggerCache.delete(name));
  }
  return file;
}
