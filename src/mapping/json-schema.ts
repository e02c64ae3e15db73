import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { mappingSchema } from './schema.js';

/**
 * The JSON Schema of mapping files, generated from the zod schema, for editor completion
 * (`$schema: ./mapping.schema.json` in a mapping). Committed as mappings/mapping.schema.json; the
 * test suite fails when the two drift apart. Regenerate: `npm run build && npm run mapping-schema`.
 */
export function mappingJsonSchema(): string {
  const schema = z.toJSONSchema(mappingSchema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ ...schema, title: 'bulk-disputes mapping file' }, null, 2)}\n`;
}

export const mappingJsonSchemaPath = new URL('../../mappings/mapping.schema.json', import.meta.url);

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(mappingJsonSchemaPath, mappingJsonSchema());
}
