import type { z } from 'zod';
import type { SimpleErrorBody, ValidationErrorBody } from '../../api/schemas/errors.js';

/**
 * An answer other than success, in one of the service's two error shapes, `{message}` or the
 * validation shape (docs/sandbox.md, "Error bodies"): thrown by handlers, written by the server.
 * The service's own messages for the cases it names are used word for word.
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: SimpleErrorBody | ValidationErrorBody,
    /** Extra response headers, e.g. `retry-after`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'SandboxHttpError';
  }
}

export interface ValidationItem {
  code: string;
  details: Record<string, unknown>;
  message: string;
}

export function simpleError(status: number, message: string, headers?: Record<string, string>): SandboxHttpError {
  return new SandboxHttpError(status, { message }, headers);
}

/** 400 with the validation shape: `message` plus `errors[{code, details, message}]`. */
export function validationError(message: string, errors: ValidationItem[]): SandboxHttpError {
  return new SandboxHttpError(400, { message, errors });
}

/**
 * A body that does not match its schema: one item per issue, each naming its field as a
 * dot-path in `details.field`, so the caller knows exactly what to fix.
 */
export function schemaError(error: z.ZodError, message = 'request failed validation'): SandboxHttpError {
  return validationError(
    message,
    error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      if (issue.code === 'unrecognized_keys') {
        // One item per unknown key, naming the key itself rather than the object holding it.
        return issue.keys.map((key) => {
          const field = [...path, key].join('.');
          return { code: 'parameter_unknown', details: { field }, message: `${field}: unknown field` };
        });
      }
      const field = path.join('.');
      return [
        {
          code: 'parameter_invalid',
          details: { field },
          message: field ? `${field}: ${issue.message}` : issue.message,
        },
      ];
    }),
  );
}
