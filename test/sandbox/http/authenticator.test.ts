import { describe, expect, it } from 'vitest';
import { authenticator } from '../../../src/sandbox/http/auth.js';
import { SandboxHttpError } from '../../../src/sandbox/http/errors.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

describe('authenticator', () => {
  it('answers a remembered header as it answered it the first time, and never remembers a refusal', () => {
    const keys = new Set(['test_a', 'live_b']);
    const authenticate = authenticator(keys);
    expect(authenticate(basic('test_a'))).toEqual({ apiKey: 'test_a', environment: 'sandbox' });
    expect(authenticate(basic('test_a'))).toEqual({ apiKey: 'test_a', environment: 'sandbox' });
    expect(authenticate(basic('live_b'))).toEqual({ apiKey: 'live_b', environment: 'production' });
    const refused = authenticate(basic('test_unknown'));
    expect(refused).toBeInstanceOf(SandboxHttpError);
    // The key added afterwards shows the refusal was not remembered.
    keys.add('test_unknown');
    expect(authenticate(basic('test_unknown'))).toEqual({ apiKey: 'test_unknown', environment: 'sandbox' });
    expect(authenticate(undefined)).toBeInstanceOf(SandboxHttpError);
  });

  it('still decides every header once it remembers as many as it may', () => {
    const keys = new Set(Array.from({ length: 100 }, (_, index) => `test_${index}`));
    const authenticate = authenticator(keys);
    for (const key of keys) expect(authenticate(basic(key))).toEqual({ apiKey: key, environment: 'sandbox' });
    expect(authenticate(basic('test_none'))).toBeInstanceOf(SandboxHttpError);
    expect(authenticate(basic('test_99'))).toEqual({ apiKey: 'test_99', environment: 'sandbox' });
  });
});
