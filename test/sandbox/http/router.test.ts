import { describe, expect, it } from 'vitest';
import { routerFor, type Route } from '../../../src/sandbox/http/routes.js';

/**
 * The router's shortcut for paths that are parameterless patterns: it must answer as the full
 * scan in table order does, including a parameter route listed first that also matches.
 */
const handler: Route['handler'] = async () => ({ status: 200, body: {} });
const table: Route[] = [
  { method: 'GET', pattern: '/v2/things/{thing_id}', handler },
  { method: 'POST', pattern: '/v2/things', handler },
  { method: 'GET', pattern: '/v2/things', handler },
  { method: 'POST', pattern: '/v2/things/special', handler },
  { method: 'POST', pattern: '/v2/new_thing', handler },
];
const route = routerFor(table);

describe('routerFor', () => {
  it('finds a literal path by method, in table order', () => {
    expect(route('POST', '/v2/new_thing')).toEqual({ route: table[4], params: {} });
    expect(route('GET', '/v2/things')).toEqual({ route: table[2], params: {} });
    expect(route('POST', '/v2/things')).toEqual({ route: table[1], params: {} });
  });

  it('lets an earlier parameter route that matches a literal path win, as the scan does', () => {
    expect(route('GET', '/v2/things/special')).toEqual({ route: table[0], params: { thing_id: 'special' } });
    expect(route('POST', '/v2/things/special')).toEqual({ route: table[3], params: {} });
  });

  it('answers method-not-allowed and no route as before', () => {
    expect(route('DELETE', '/v2/new_thing')).toBe('method-not-allowed');
    expect(route('DELETE', '/v2/things/special')).toBe('method-not-allowed');
    expect(route('GET', '/v2/new_thing/')).toBeUndefined();
    expect(route('GET', '/v2/other')).toBeUndefined();
    expect(route('GET', '/v2/things/a%20b')).toEqual({ route: table[0], params: { thing_id: 'a b' } });
  });
});
