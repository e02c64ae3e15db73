import { defaultFaultConfig, faultConfigSchema, unknownRouteScopes } from '../faults/config.js';
import { noFaults } from '../faults/fault-injector.js';
import { createFaultInjector, faultConfigOf } from '../faults/seeded-faults.js';
import { parseBody } from '../http/body.js';
import { simpleError, validationError } from '../http/errors.js';
import type { HandlerCall, Reply } from '../http/routes.js';

/** GET /_sandbox/faults (control prefix only): the fault configuration in force. */
export async function getFaults(call: HandlerCall): Promise<Reply> {
  const { faults } = call.core;
  if (faults === noFaults) return { status: 200, body: defaultFaultConfig };
  const config = faultConfigOf(faults);
  // Only code (a test) can install an injector without a configuration; say so rather than guess.
  if (config === undefined) {
    throw simpleError(
      409,
      'faults: expected an injector made from a configuration, got one set in code; POST /_sandbox/faults replaces it',
    );
  }
  return { status: 200, body: config };
}

/**
 * POST /_sandbox/faults (control prefix only): replaces the faults with this configuration,
 * absent fields at their defaults (`{}` turns every fault off). The generator restarts from
 * `seed` and the rate limit from a full bucket, so a run replayed after the same POST meets the
 * same faults.
 */
export async function setFaults(call: HandlerCall): Promise<Reply> {
  const config = parseBody(faultConfigSchema, await call.json());
  // A scope naming no route would leave faults silently off: refuse it as a bad field.
  const unknown = new Set(unknownRouteScopes(config.routes ?? [], call.routes));
  const errors = (config.routes ?? []).flatMap((scope, index) =>
    unknown.has(scope)
      ? [
          {
            code: 'parameter_invalid',
            details: { field: `routes.${index}` },
            message: `routes.${index}: expected a service route of the sandbox, got ${JSON.stringify(scope)}`,
          },
        ]
      : [],
  );
  if (errors.length > 0) throw validationError('request failed validation', errors);
  call.core.faults = createFaultInjector(config);
  return { status: 200, body: config };
}
