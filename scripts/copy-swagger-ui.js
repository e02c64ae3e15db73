// Part of `npm run build`: copies the few files of Swagger UI that the sandbox's /docs page loads
// (its script, its style sheet, its icon) with their licence and notice into dist/swagger-ui/.
// swagger-ui-dist is a development dependency, so an installed bulk-disputes carries these files
// and not the package, whose own dependency reports each installation to a third party
// (docs/development.md, "What the package carries").
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files served (src/sandbox/http/openapi-routes.ts lists the same), and what the licence asks to travel with them. */
const files = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'NOTICE'];

const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const to = fileURLToPath(new URL('../dist/swagger-ui/', import.meta.url));
await mkdir(to, { recursive: true });
await Promise.all(files.map(async (name) => copyFile(join(from, name), join(to, name))));
