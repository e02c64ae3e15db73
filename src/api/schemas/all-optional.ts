import { z } from 'zod';

/**
 * A strict object whose every field is optional, as most of the service's nested objects are in
 * shape: which fields a request needs is the filing validation's business, not the schema's.
 */
export function allOptional<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape).partial();
}
