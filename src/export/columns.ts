import type { z } from 'zod';
import { caseObject } from '../api/schemas/case.js';
import { claimSummarySchema } from '../api/schemas/claim.js';
import { eventSchema } from '../api/schemas/resources.js';

/** What `bulk-disputes export` reads: each list the service offers. */
export const exportResources = ['cases', 'claims', 'events'] as const;
export type ExportResource = (typeof exportResources)[number];

export function isExportResource(value: string): value is ExportResource {
  return (exportResources as readonly string[]).includes(value);
}

/**
 * The columns a reconciliation wants first. Cases carry the card inside the transaction
 * (`transaction.card`), as the service returns them.
 */
export const defaultColumns: Record<ExportResource, readonly string[]> = {
  cases: [
    'case_id',
    'claim_id',
    'status',
    'created',
    'closed_reason',
    'review_status',
    'resolution_due_date',
    'dispute.reason',
    'dispute.raised_by',
    'dispute.date',
    'dispute.amount',
    'dispute.currency',
    'transaction.amount',
    'transaction.currency',
    'transaction.date',
    'transaction.arn',
    'transaction.card.last4',
    'transaction.card.network',
    'merchant.name',
    'merchant.category_code',
    'cardholder.name',
  ],
  claims: ['claim_id', 'created', 'status'],
  events: ['event_id', 'created', 'type', 'data.case_id'],
};

/** Each list's items as documented (the simplified claim for the claims list). */
const itemSchemas: Record<ExportResource, z.ZodType> = {
  cases: caseObject,
  claims: claimSummarySchema,
  events: eventSchema,
};

/**
 * The columns of `--columns` that no documented field of the resource gives: allowed (a field
 * the service does not document yet may come), but worth one warning, since a typo looks the same.
 */
export function unknownColumns(resource: ExportResource, columns: readonly string[]): string[] {
  const { leaves, open } = documentedPaths(itemSchemas[resource]);
  return columns.filter((column) => !leaves.has(column) && !open.some((prefix) => column.startsWith(`${prefix}.`)));
}

/** `--columns a,b.c` as a list; blanks are dropped, an empty list is a usage error for the caller. */
export function parseColumns(value: string): string[] {
  return value
    .split(',')
    .map((column) => column.trim())
    .filter((column) => column !== '');
}

interface Paths {
  /** Dot-paths of scalar and array fields. */
  leaves: Set<string>;
  /** Paths below which any key may come (records such as `custom_fields`, or unknown shapes). */
  open: string[];
}

function documentedPaths(schema: z.ZodType, prefix = '', paths: Paths = { leaves: new Set(), open: [] }): Paths {
  const def = schema.def as unknown as {
    type: string;
    innerType?: z.ZodType;
    in?: z.ZodType;
    shape?: Record<string, z.ZodType>;
  };
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      if (def.innerType !== undefined) documentedPaths(def.innerType, prefix, paths);
      return paths;
    case 'pipe':
      if (def.in !== undefined) documentedPaths(def.in, prefix, paths);
      return paths;
    case 'object':
      for (const [key, field] of Object.entries((schema as z.ZodObject).shape)) {
        documentedPaths(field as z.ZodType, prefix === '' ? key : `${prefix}.${key}`, paths);
      }
      return paths;
    case 'record':
    case 'unknown':
    case 'any':
      paths.open.push(prefix);
      return paths;
    default:
      paths.leaves.add(prefix);
      return paths;
  }
}
