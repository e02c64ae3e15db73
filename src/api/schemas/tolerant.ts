import { z } from 'zod';

/**
 * The type a strict schema's output takes when read tolerantly: enumerations open to any string,
 * optional fields may also be `null`, and every object keeps keys it does not know.
 */
export type Tolerant<T> = T extends string
  ? string extends T
    ? string
    : T | (string & {})
  : T extends number | boolean | bigint | null | undefined
    ? T
    : T extends readonly (infer Element)[]
      ? Tolerant<Element>[]
      : T extends object
        ? { [Key in keyof T]: undefined extends T[Key] ? Tolerant<T[Key]> | null : Tolerant<T[Key]> } & {
            [key: string]: unknown;
          }
        : T;

/**
 * Derives the reading of a response from the strict description of the same resource, so the
 * interface is described once: the wire schemas are its single description. Liberal in what it
 * accepts (docs/interface.md): a new field, a new enum value or a `null` for an absent field never
 * fails a run; types and required fields still do.
 */
export function tolerant<Schema extends z.ZodType>(schema: Schema): z.ZodType<Tolerant<z.output<Schema>>> {
  return loosen(schema) as z.ZodType<Tolerant<z.output<Schema>>>;
}

function loosen(schema: z.ZodType): z.ZodType {
  const def = schema.def;
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape;
      const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, loosen(field as z.ZodType)]));
      return z.looseObject(fields);
    }
    // An optional field may come back as null too: both mean "absent".
    case 'optional':
    case 'default':
      return loosen(innerType(schema)).nullish();
    case 'nullable':
      return loosen(innerType(schema)).nullable();
    case 'array':
      return z.array(loosen((schema as z.ZodArray).element as z.ZodType));
    case 'record':
      return z.record(z.string(), loosen((schema as z.ZodRecord).valueType as z.ZodType));
    case 'union':
      return z.union((schema as z.ZodUnion).options.map((option) => loosen(option as z.ZodType)));
    // Enumerations and string formats open to any string; number checks (int, ranges) drop.
    case 'enum':
    case 'string':
      return z.string();
    case 'literal':
      return typeof (schema as z.ZodLiteral).value === 'string' ? z.string() : schema;
    case 'number':
      return z.number();
    case 'boolean':
    case 'unknown':
    case 'any':
    case 'null':
      return schema;
    case 'pipe': {
      // A schema followed by a transform: loosen what is read, keep what is done with it.
      const { in: input, out } = def as unknown as { in: z.ZodType; out: z.ZodType };
      if (out.def.type === 'transform') return loosen(input).pipe(out);
      throw new Error(`tolerant(): unsupported pipe: expected a transform after the schema, got ${out.def.type}`);
    }
    default:
      throw new Error(`tolerant(): unsupported schema type: expected a plain resource schema, got ${def.type}`);
  }
}

function innerType(wrapper: z.ZodType): z.ZodType {
  return (wrapper.def as unknown as { innerType: z.ZodType }).innerType;
}
