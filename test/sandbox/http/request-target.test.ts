import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../../src/sandbox/http/request-target.js';

/** The fast path must read every target exactly as the URL parser does. */
/** What a read gives, or the error it throws (`//host` is no path: the URL parser refuses it). */
const outcome = (read: () => { pathname: string; query: URLSearchParams }) => {
  try {
    const { pathname, query } = read();
    return { pathname, query: [...query] };
  } catch (error) {
    return { error: (error as { code?: string }).code };
  }
};
const asUrlReadsIt = (target: string) =>
  outcome(() => {
    const url = new URL(target, 'http://sandbox');
    return { pathname: url.pathname, query: url.searchParams };
  });
const asRead = (target: string) => outcome(() => requestTarget(target));

describe('requestTarget', () => {
  it.each([
    '/',
    '/v2/issuer/new_claim',
    '/v2/issuer/claims/CLM-1.2~x/',
    '/v2/issuer/claims?limit=5&starting_after=claim_1',
    '/v2/issuer/cases?q=a+b&x=%41%zz&y="\'<>',
    '/v2/issuer/../claims',
    '/v2/./issuer/.hidden',
    '//evil/claims',
    '/v2/claims/%E0%A4%A',
    '/v2/claims/caf\u00e9?name=caf\u00e9',
    '/v2/claims#fragment',
    '/v2/claims?x=1#y',
    '/v2\\issuer',
    '/v2/issuer/claims? a=1',
    '/??',
    '/v2/issuer/claims??limit=5',
  ])('%s as the URL parser reads it', (target) => {
    expect(asRead(target)).toEqual(asUrlReadsIt(target));
  });

  it('reads any target as the URL parser does', () => {
    const characters = fc.oneof(
      fc.constantFrom(...'/?&=+#%._~-aZ09 "\'<>\\@:;\u00e9\u0000\u007f'.split('')),
      fc.constantFrom('%2e', '%2F', '%41', '..', '//', '??'),
    );
    fc.assert(
      fc.property(fc.array(characters, { maxLength: 24 }), (parts) => {
        const target = `/${parts.join('')}`;
        expect(asRead(target)).toEqual(asUrlReadsIt(target));
      }),
      { numRuns: 5000 },
    );
  });
});
