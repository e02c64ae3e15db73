import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { mappingSchema, type Mapping } from './schema.js';
import { RefusalError, codeOf } from '../errors/coded-error.js';
import { notAMappingSentence } from './not-a-mapping.js';

export interface MappingIssue {
  /** Dot-path in the mapping, e.g. `shared.dispute.reason.enum`. */
  field: string;
  /** 1-based line in the file, where it could be told. */
  line: number | undefined;
  message: string;
}

/** A mapping that cannot be used: the run stops before anything is read or sent (exit code 2). */
export class MappingError extends RefusalError {
  readonly code = 'MAPPING_INVALID';
  constructor(
    readonly file: string,
    readonly issues: MappingIssue[],
  ) {
    super(
      issues
        .map(
          (issue) =>
            `${file}${issue.line === undefined ? '' : `:${issue.line}`}: ${issue.field ? `${issue.field}: ` : ''}${issue.message}`,
        )
        .join('\n'),
    );
    this.name = 'MappingError';
  }
}

/** Reads and checks a mapping file (YAML, or JSON, which is YAML too), naming file, field and line. */
export async function loadMapping(file: string): Promise<Mapping> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new MappingError(file, [
      {
        field: '',
        line: undefined,
        message: `expected a readable mapping file, got ${codeOf(error) ?? 'unreadable'}`,
      },
    ]);
  }
  return parseMapping(text, file);
}

/**
 * A mapping shares a block with an anchor and a few aliases; a document whose aliases expand into
 * aliases (the "billion laughs") would grow without bound. The yaml library stops the expansion at
 * its own limit (100 aliases, weighted by what each expands to) with a ReferenceError, which is a
 * refusal of the file like any other.
 */
function valueOf(document: Document, file: string): unknown {
  try {
    return document.toJS();
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw new MappingError(file, [
      {
        field: '',
        line: undefined,
        message: `expected YAML whose aliases expand to a mapping's size, got aliases of aliases that expand without bound (${error.message})`,
      },
    ]);
  }
}

/**
 * The line of each `not_card_numbers` entry in its mapping file, for the error of a name that is
 * not a column of the file (card-number-columns.ts), found only once the file's header is read.
 * Keyed by the list itself, which a mapping copied with another id prefix still shares.
 */
export const notCardNumberLines = new WeakMap<readonly string[], readonly (number | undefined)[]>();

export function parseMapping(text: string, file: string): Mapping {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const value = document.errors.length > 0 ? undefined : valueOf(document, file);
  const notAMapping = notAMappingSentence(text, document.errors.length > 0 ? { syntaxError: true } : { value });
  if (notAMapping !== undefined) throw new MappingError(file, [{ field: '', line: undefined, message: notAMapping }]);
  if (document.errors.length > 0) {
    throw new MappingError(
      file,
      document.errors.map((error) => ({
        field: '',
        line: lineCounter.linePos(error.pos[0]).line,
        message: `expected YAML or JSON, got ${error.message.split('\n')[0] ?? 'a syntax error'}`,
      })),
    );
  }
  const parsed = mappingSchema.safeParse(value);
  if (parsed.success) {
    if (parsed.data.not_card_numbers !== undefined)
      notCardNumberLines.set(
        parsed.data.not_card_numbers,
        parsed.data.not_card_numbers.map((_column, index) =>
          lineOf(document, lineCounter, ['not_card_numbers', index]),
        ),
      );
    return parsed.data;
  }
  throw new MappingError(
    file,
    parsed.error.issues.map((issue) => toIssue(issue, document, lineCounter)),
  );
}

/** A schema issue as the mapping's: its dot-path and its line in the file. */
function toIssue(issue: z.core.$ZodIssue, document: Document, lineCounter: LineCounter): MappingIssue {
  // An unknown key is found at itself, not at the object holding it. Mapping keys are dot-paths
  // themselves (`shared: {"card.last4": …}`): a path segment is one key, never split on dots.
  const path =
    issue.code === 'unrecognized_keys' ? [...issue.path.map(String), issue.keys[0] ?? ''] : issue.path.map(String);
  const field = path.join('.');
  return {
    field,
    line: lineOf(document, lineCounter, path),
    message: issue.code === 'unrecognized_keys' ? 'expected a known field, got an unknown one' : issue.message,
  };
}

/** The line of the deepest node of a path that exists in the file. */
function lineOf(document: Document, lineCounter: LineCounter, path: readonly (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
