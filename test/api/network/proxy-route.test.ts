import { describe, expect, it } from 'vitest';
import {
  describeProxy,
  parseProxyUrl,
  ProxyUrlError,
  proxySecrets,
  routeFor,
  type Route,
} from '../../../src/api/network/proxy-route.js';

/** Which way a request goes (direct or through a bank's proxy), as curl decides it. */

const via = (route: Route) =>
  route.kind === 'direct' ? `direct: ${route.reason}` : `${route.proxy.href} (${route.reason})`;
const service = new URL('https://claims.bank.internal:8443/api');

describe('the route to the service', () => {
  it.each([
    ['no proxy anywhere', {}, undefined, 'direct: no proxy set'],
    ['HTTPS_PROXY', { HTTPS_PROXY: 'http://proxy.bank:3128' }, undefined, 'http://proxy.bank:3128/ (HTTPS_PROXY)'],
    [
      'https_proxy wins over HTTPS_PROXY',
      { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' },
      undefined,
      'http://lower:1/ (https_proxy)',
    ],
    [
      'a proxy without a scheme is http',
      { HTTPS_PROXY: 'proxy.bank:3128' },
      undefined,
      'http://proxy.bank:3128/ (HTTPS_PROXY)',
    ],
    ['ALL_PROXY as the last resort', { ALL_PROXY: 'http://all:3' }, undefined, 'http://all:3/ (ALL_PROXY)'],
    ['--proxy over the environment', { HTTPS_PROXY: 'http://env:1' }, 'http://flag:9', 'http://flag:9/ (--proxy)'],
    ['HTTP_PROXY is not for an https service', { HTTP_PROXY: 'http://plain:1' }, undefined, 'direct: no proxy set'],
    ['NO_PROXY *', { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' }, undefined, 'direct: NO_PROXY matches *'],
    [
      'NO_PROXY a parent domain',
      { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'example.com, bank.internal' },
      undefined,
      'direct: NO_PROXY matches bank.internal',
    ],
    [
      'NO_PROXY a leading dot',
      { HTTPS_PROXY: 'http://p:1', no_proxy: '.bank.internal' },
      undefined,
      'direct: no_proxy matches .bank.internal',
    ],
    [
      'NO_PROXY the host and its port',
      { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'claims.bank.internal:8443' },
      undefined,
      'direct: NO_PROXY matches claims.bank.internal:8443',
    ],
    [
      'NO_PROXY another port does not match',
      { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'claims.bank.internal:443' },
      undefined,
      'http://p:1/ (HTTPS_PROXY)',
    ],
    [
      'NO_PROXY a suffix that is not a domain does not match',
      { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'ank.internal' },
      undefined,
      'http://p:1/ (HTTPS_PROXY)',
    ],
    [
      'NO_PROXY applies to --proxy too',
      { NO_PROXY: 'bank.internal' },
      'http://flag:9',
      'direct: NO_PROXY matches bank.internal',
    ],
  ])('%s', (_name, env: Record<string, string>, proxy: string | undefined, expected) => {
    expect(via(routeFor(service, { env, proxy }))).toBe(expected);
  });

  it.each([
    ['http://10.1.2.3:8080', '10.0.0.0/8', true],
    ['http://10.1.2.3:8080', '10.1.2.3', true],
    ['http://10.1.2.3:8080', '192.168.0.0/16', false],
    ['http://[fd00::5]:8080', 'fd00::/8', true],
    ['http://[fd00::5]:8080', '[fd00::5]:8080', true],
    ['http://[2001:db8::1]/', 'fd00::/8', false],
  ])('NO_PROXY by address: %s against %s', (url, noProxy, direct) => {
    expect(routeFor(new URL(url), { env: { http_proxy: 'http://p:1', NO_PROXY: noProxy } }).kind).toBe(
      direct ? 'direct' : 'proxy',
    );
  });

  it('an http service uses http_proxy only (curl ignores HTTP_PROXY: a CGI request header could set it)', () => {
    expect(routeFor(new URL('http://svc'), { env: { HTTP_PROXY: 'http://upper:1' } }).kind).toBe('direct');
    expect(via(routeFor(new URL('http://svc'), { env: { http_proxy: 'http://lower:1' } }))).toBe(
      'http://lower:1/ (http_proxy)',
    );
  });

  it('refuses a proxy URL it cannot use, naming where it came from', () => {
    expect(() => parseProxyUrl('socks5://p:1080', 'HTTPS_PROXY')).toThrow(
      new ProxyUrlError('HTTPS_PROXY: expected an http:// or https:// proxy, got socks5://'),
    );
    expect(() => routeFor(service, { proxy: 'http://[bad' })).toThrow(
      '--proxy: expected a proxy URL such as http://proxy.bank.internal:3128, got one that does not parse',
    );
  });

  it("never shows a proxy's credentials, and knows every form they travel in", () => {
    const route = routeFor(service, { proxy: 'http://night%40job:p%3Ass@proxy.bank:3128' });
    if (route.kind !== 'proxy') throw new Error('test: a proxy route');
    expect(describeProxy(route.proxy)).toBe('http://[REDACTED]@proxy.bank:3128');
    expect(proxySecrets(route)).toEqual(
      expect.arrayContaining([Buffer.from('night@job:p:ss').toString('base64'), 'p%3Ass', 'p:ss']),
    );
  });
});
