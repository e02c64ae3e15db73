import { z } from 'zod';

/**
 * Every list answers `{data, has_more}`, newest first, and pages with `limit` (1..100, default
 * 10), `starting_after` and `ending_before` (docs/interface.md).
 */
export function listPage<Item extends z.ZodType>(item: Item) {
  return z.looseObject({ data: z.array(item), has_more: z.boolean() });
}

export const listQueryFields = {
  limit: z.number().int().min(1).max(100).optional(),
  starting_after: z.string().min(1).optional(),
  ending_before: z.string().min(1).optional(),
};

/** The two cursors are mutually exclusive. */
export const oneCursorAtMost = (query: { starting_after?: string | undefined; ending_before?: string | undefined }) =>
  query.starting_after === undefined || query.ending_before === undefined;
export const cursorMessage = { message: 'expected starting_after or ending_before, not both' };

export const listQuery = z.strictObject(listQueryFields).refine(oneCursorAtMost, cursorMessage);

export type ListQuery = z.input<typeof listQuery>;
export interface ListPage<Item> {
  data: Item[];
  has_more: boolean;
}
