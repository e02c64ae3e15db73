import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { checkedParse } from '../../api/schemas/precompiled.js';
import { schemaError, simpleError, validationError } from './errors.js';

/** Largest JSON body accepted: a new_claim with many cases fits well within it. */
export const maxJsonBytes = 1_000_000;

/**
 * Reads a JSON body, refusing it once it passes `maxJsonBytes` (never buffering more). An empty
 * body reads as `{}`, since several endpoints take "no body" or "may be empty".
 */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxJsonBytes) {
      request.resume();
      throw simpleError(413, `request body too large: expected at most ${maxJsonBytes} bytes`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw validationError('request body is not valid JSON', [
      { code: 'json_invalid', details: { field: '' }, message: `body: expected JSON, got a parse error: ${(error as Error).message}` },
    ]);
  }
}

/** Parses with a strict schema; a mismatch is a 400 naming every field at fault. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = checkedParse(schema, body);
  if (!parsed.success) throw schemaError(parsed.error);
  return parsed.data;
}
