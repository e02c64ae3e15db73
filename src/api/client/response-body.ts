import type { z } from 'zod';
import { ResponseShapeError, type RequestContext, type SchemaIssue } from '../errors.js';

/**
 * An answer's body read against the schema its route expects: anything else is a ResponseShapeError
 * naming the path and what was expected, never data read half right.
 */

/** An empty body reads as `undefined`: only a schema that expects no body accepts it. */
export function parseBody<Data>(status: number, text: string, schema: z.ZodType<Data>, context: RequestContext): Data {
  const json = text.trim() === '' ? undefined : safeJson(text);
  if (json === undefined && text.trim() !== '') {
    throw new ResponseShapeError(
      status,
      [{ path: '', message: `expected a JSON body, got ${JSON.stringify(excerpt(text))}` }],
      context,
    );
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues =
    json === undefined ? [{ path: '', message: 'expected a JSON body, got an empty one' }] : issuesOf(parsed.error);
  throw new ResponseShapeError(status, issues, context);
}

export function issuesOf(error: z.ZodError): SchemaIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
