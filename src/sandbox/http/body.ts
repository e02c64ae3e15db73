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
  // Awaits a promise made here rather than one an async function returns: a promise and two
  // microtask turns fewer a request.
  const body = await new Promise<Buffer>((resolve, reject) => {
    readBody(request, resolve, reject);
  });
  const text = body.toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw validationError('request body is not valid JSON', [
      {
        code: 'json_invalid',
        details: { field: '' },
        message: `body: expected JSON, got a parse error: ${(error as Error).message}`,
      },
    ]);
  }
}

/**
 * The body's bytes, through the stream's own events rather than an async iterator, which cost a
 * new_claim more than its JSON.parse. A body that passes `maxJsonBytes` is drained, not buffered,
 * and refused; a request that closes before its end is refused too. Settles through
 * `resolve` or `reject` (readJson's promise), exactly once.
 */
function readBody(request: IncomingMessage, resolve: (body: Buffer) => void, reject: (error: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxJsonBytes) {
      finish();
      request.resume();
      reject(simpleError(413, `request body too large: expected at most ${maxJsonBytes} bytes`));
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    finish();
    // One chunk (the usual new_claim) needs no copy.
    resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, size));
  };
  // A body cut short (the client gone, or its time up: server.ts) is the client's doing, as for an
  // upload: a refusal, which nobody may read, rather than an error of the sandbox's to log.
  const cutShort = () => {
    finish();
    reject(simpleError(400, 'request body: expected the whole body, got a connection closed before its end'));
  };
  const onError = cutShort;
  const onClose = cutShort;
  const finish = () => {
    request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  };
  if (request.destroyed) {
    onClose();
    return;
  }
  request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
}

/** Parses with a strict schema; a mismatch is a 400 naming every field at fault. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = checkedParse(schema, body);
  if (!parsed.success) throw schemaError(parsed.error);
  return parsed.data;
}
