import { describe, expect, it } from 'vitest';
import {
  defaultFaultConfig,
  faultConfigFromFlags,
  faultConfigSchema,
  faultFlagHelp,
  parseLatency,
  routeScopeMatches,
  unknownRouteScopes,
} from '../../../src/sandbox/faults/config.js';
import { routes } from '../../../src/sandbox/route-table.js';

/** The dot-paths zod names for a configuration. */
function fieldsAtFault(input: unknown): string[] {
  const parsed = faultConfigSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('fault configuration schema', () => {
  it('fills the defaults: no faults, seed 1, Retry-After 1', () => {
    expect(defaultFaultConfig).toEqual({
      seed: 1,
      latencyMs: 0,
      failRate: 0,
      dropRate: 0,
      dropAfterCommitRate: 0,
      retryAfterSeconds: 1,
    });
  });

  it('accepts a complete configuration as given', () => {
    const input = {
      seed: 4_294_967_295,
      latencyMs: { min: 20, max: 80 },
      failRate: 0.2,
      dropRate: 0.05,
      dropAfterCommitRate: 1,
      rateLimitPerSecond: 10,
      retryAfterSeconds: 3,
      routes: ['POST /v2/issuer/new_claim', '* /v2/issuer/claims/{claim_id}/file'],
    };
    expect(faultConfigSchema.parse(input)).toEqual(input);
  });

  it('names the field at fault', () => {
    expect(fieldsAtFault({ failRate: 2 })).toEqual(['failRate']);
    expect(fieldsAtFault({ dropRate: -0.1 })).toEqual(['dropRate']);
    expect(fieldsAtFault({ dropAfterCommitRate: '1' })).toEqual(['dropAfterCommitRate']);
    expect(fieldsAtFault({ seed: 1.5 })).toEqual(['seed']);
    expect(fieldsAtFault({ seed: 2 ** 32 })).toEqual(['seed']);
    expect(fieldsAtFault({ rateLimitPerSecond: 0 })).toEqual(['rateLimitPerSecond']);
    expect(fieldsAtFault({ latencyMs: { min: 80, max: 20 } })).toEqual(['latencyMs.max']);
    expect(fieldsAtFault({ latencyMs: -1 })).toEqual(['latencyMs']);
    expect(fieldsAtFault({ routes: ['POST /v2/issuer/new_claim', 'new_claim'] })).toEqual(['routes.1']);
    expect(fieldsAtFault({ failrate: 0.5 })).toEqual(['']);
  });
});

describe('route scopes', () => {
  it('match by method (or `*`) and pattern', () => {
    const route = { method: 'GET', pattern: '/v2/issuer/claims/{claim_id}' };
    expect(routeScopeMatches('GET /v2/issuer/claims/{claim_id}', route)).toBe(true);
    expect(routeScopeMatches('* /v2/issuer/claims/{claim_id}', route)).toBe(true);
    expect(routeScopeMatches('POST /v2/issuer/claims/{claim_id}', route)).toBe(false);
    expect(routeScopeMatches('GET /v2/issuer/claims', route)).toBe(false);
  });

  it('names the scopes that no service route of the table answers to', () => {
    const scopes = [
      'POST /v2/issuer/new_claim',
      '* /v2/issuer/cases/{case_id}',
      'POST /v2/issuer/newclaim',
      'POST /_sandbox/cases/{case_id}/unavailable',
    ];
    expect(unknownRouteScopes(scopes, routes)).toEqual([
      'POST /v2/issuer/newclaim',
      'POST /_sandbox/cases/{case_id}/unavailable',
    ]);
  });
});

describe('parseLatency', () => {
  it('reads a fixed value or a range', () => {
    expect(parseLatency('50')).toBe(50);
    expect(parseLatency('20-80')).toEqual({ min: 20, max: 80 });
    expect(parseLatency(' 20 - 80 ')).toEqual({ min: 20, max: 80 });
  });

  it('says what it expected and what it got', () => {
    expect(() => parseLatency('fast')).toThrow(
      '--latency-ms: expected milliseconds as N or MIN-MAX, e.g. 50 or 20-80, got "fast"',
    );
    expect(() => parseLatency('80-20')).toThrow('--latency-ms: expected MIN no greater than MAX, got "80-20"');
    expect(() => parseLatency('-5')).toThrow(/^--latency-ms: expected/);
    expect(() => parseLatency('9999999')).toThrow(
      '--latency-ms: expected whole milliseconds from 0 to 600000, got "9999999"',
    );
  });
});

describe('faultConfigFromFlags', () => {
  it('turns the flags into a configuration', () => {
    const config = faultConfigFromFlags(
      {
        seed: '42',
        latencyMs: '20-80',
        failRate: '0.3',
        dropRate: '.1',
        dropAfterCommitRate: '1',
        rateLimit: '5',
        retryAfterSeconds: '2',
        faultRoute: ['POST  /v2/issuer/new_claim'],
      },
      routes,
    );
    expect(config).toEqual({
      seed: 42,
      latencyMs: { min: 20, max: 80 },
      failRate: 0.3,
      dropRate: 0.1,
      dropAfterCommitRate: 1,
      rateLimitPerSecond: 5,
      retryAfterSeconds: 2,
      routes: ['POST /v2/issuer/new_claim'],
    });
    expect(faultConfigFromFlags({})).toEqual(defaultFaultConfig);
  });

  it('names the flag, what it expected and what it got', () => {
    expect(() => faultConfigFromFlags({ failRate: '2' })).toThrow('--fail-rate: expected a number from 0 to 1, got 2');
    expect(() => faultConfigFromFlags({ dropRate: 'often' })).toThrow(
      '--drop-rate: expected a number from 0 to 1, got often',
    );
    expect(() => faultConfigFromFlags({ dropAfterCommitRate: '-1' })).toThrow(
      '--drop-after-commit-rate: expected a number from 0 to 1, got -1',
    );
    expect(() => faultConfigFromFlags({ seed: 'abc' })).toThrow(
      '--seed: expected a whole number from 0 to 4294967295, got abc',
    );
    expect(() => faultConfigFromFlags({ rateLimit: '0' })).toThrow(
      '--rate-limit: expected a whole number from 1 up, got 0',
    );
    expect(() => faultConfigFromFlags({ retryAfterSeconds: '1.5' })).toThrow(
      '--retry-after-seconds: expected a whole number from 0 to 86400, got 1.5',
    );
    expect(() => faultConfigFromFlags({ latencyMs: 'x' })).toThrow(/^--latency-ms: expected/);
    expect(() => faultConfigFromFlags({ faultRoute: ['new_claim'] })).toThrow(
      '--fault-route: expected "METHOD PATTERN" such as "POST /v2/issuer/new_claim", got "new_claim"',
    );
    expect(() => faultConfigFromFlags({ faultRoute: ['POST /v2/issuer/newclaim'] }, routes)).toThrow(
      '--fault-route: expected a service route of the sandbox such as "POST /v2/issuer/new_claim", got "POST /v2/issuer/newclaim"',
    );
  });

  it('documents one flag per field of FaultFlags', () => {
    expect(faultFlagHelp.map((flag) => flag.flags.split(' ')[0])).toEqual([
      '--seed',
      '--latency-ms',
      '--fail-rate',
      '--rate-limit',
      '--drop-rate',
      '--drop-after-commit-rate',
      '--capacity',
      '--retry-after-seconds',
      '--fault-route',
    ]);
  });
});
