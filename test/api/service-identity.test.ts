import { describe, expect, it } from 'vitest';
import {
  compareService,
  describeService,
  embeddedSandbox,
  normaliseBaseUrl,
  parseService,
  serialiseService,
  serviceAt,
} from '../../src/api/service-identity.js';

/** Which service a journal or a bookmark belongs to, decided without a request. */

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://claims.example.com', 'https://claims.example.com'],
    ['https://claims.example.com/', 'https://claims.example.com'],
    ['HTTPS://Claims.Example.COM:443/', 'https://claims.example.com'],
    ['http://127.0.0.1:80', 'http://127.0.0.1'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
    ['https://claims.example.com:8443/api/v/', 'https://claims.example.com:8443/api/v'],
    ['  https://claims.example.com/api//  ', 'https://claims.example.com/api'],
    // Kept as given: the client refuses it with its own message.
    ['not a url', 'not a url'],
  ])('%s -> %s', (given, expected) => {
    expect(normaliseBaseUrl(given)).toBe(expected);
  });

  it('keeps what makes services differ: scheme, host, port and path prefix', () => {
    const services = [
      'http://claims.example.com',
      'https://claims.example.com',
      'https://claims.example.com:8443',
      'https://other.example.com',
      'https://claims.example.com/eu',
    ];
    expect(new Set(services.map(normaliseBaseUrl)).size).toBe(services.length);
  });
});

describe('service identity', () => {
  it('is the environment of the key, never the key: a rotated key of one environment is the same service', () => {
    const first = serviceAt('https://claims.example.com', 'live_first_key');
    const rotated = serviceAt('https://claims.example.com/', 'live_rotated_key');
    expect(compareService(first, rotated)).toEqual({ kind: 'same' });
    expect(serialiseService(first)).not.toContain('live_first_key');
    expect(describeService(first)).toBe('https://claims.example.com (live key)');
  });

  it('a test key and a live key at one address are two services (the service keeps their data apart)', () => {
    const test = serviceAt('https://claims.example.com', 'test_key');
    const live = serviceAt('https://claims.example.com', 'live_key');
    expect(compareService(test, live)).toEqual({ kind: 'other', recorded: test });
  });

  it('the embedded sandbox is its data file, whatever port it got', () => {
    const sandbox = embeddedSandbox('/srv/disputes/sandbox.db', 'test_generated');
    expect(describeService(sandbox)).toBe('the embedded sandbox at /srv/disputes/sandbox.db (test key)');
    expect(compareService(sandbox, embeddedSandbox('/srv/disputes/other.db', 'test_generated')).kind).toBe('other');
    expect(compareService(sandbox, serviceAt('http://127.0.0.1:4010', 'test_generated')).kind).toBe('other');
  });

  it('reads back what it wrote; anything else is unrecorded', () => {
    for (const service of [
      serviceAt('https://claims.example.com/api', 'live_x'),
      embeddedSandbox('/tmp/sandbox.db', 'test_x'),
    ]) {
      expect(parseService(serialiseService(service))).toEqual(service);
    }
    for (const text of [
      undefined,
      '',
      '{',
      'null',
      '{"kind":"url","baseUrl":"https://x"}',
      '{"kind":"ftp","baseUrl":"x","environment":"live"}',
    ]) {
      expect(parseService(text)).toBeUndefined();
    }
    expect(compareService(undefined, serviceAt('https://x.example', 'live_x'))).toEqual({ kind: 'unrecorded' });
  });
});
