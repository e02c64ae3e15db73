import { z } from 'zod';
import { tolerant } from './tolerant.js';

/** The two error body shapes the service answers with. */

export const simpleErrorSchema = z.strictObject({ message: z.string() });

export const validationErrorItemSchema = z.strictObject({
  code: z.string(),
  details: z.record(z.string(), z.unknown()),
  message: z.string(),
});

export const validationErrorSchema = z.strictObject({
  message: z.string(),
  errors: z.array(validationErrorItemSchema),
});

/**
 * Either shape, read tolerantly: a body with neither field still parses, and so does an item
 * that lacks a part, so one odd item never costs the message and the other items.
 */
export const errorBodyResponse = tolerant(
  z.strictObject({ message: z.string().optional(), errors: z.array(validationErrorItemSchema.partial()).optional() }),
);

export type SimpleErrorBody = z.input<typeof simpleErrorSchema>;
export type ValidationErrorBody = z.input<typeof validationErrorSchema>;
export type ErrorBody = z.output<typeof errorBodyResponse>;
