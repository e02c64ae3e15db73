import { mkdir, writeFile } from 'node:fs/promises';
import { openApiDocumentPath, openApiText } from './document.js';

/**
 * `npm run openapi`: writes openapi/claims-service.json from the wire schemas. The file is never
 * edited by hand; test/openapi/drift.test.ts fails when it differs from what this writes.
 */
await mkdir(new URL('.', openApiDocumentPath), { recursive: true });
await writeFile(openApiDocumentPath, openApiText());
process.stdout.write(`wrote ${openApiDocumentPath.pathname}\n`);
