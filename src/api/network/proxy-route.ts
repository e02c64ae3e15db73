import { isIP } from 'node:net';

/**
 * Which way a request goes: straight to the service, or through an HTTP(S) proxy, and
 * why, in the words `check` prints. The proxy comes from `--proxy` (CLAIMS_PROXY), else from the
 * environment as curl reads it: `https_proxy` / `HTTPS_PROXY` for an https service, `http_proxy`
 * for an http one (curl ignores upper-case `HTTP_PROXY`: a CGI program could be handed one), then
 * `all_proxy` / `ALL_PROXY`. `no_proxy` / `NO_PROXY` exempts hosts from any of them: `*`, a host
 * name and its subdomains (`bank.internal` and `.bank.internal` both match `claims.bank.internal`),
 * an IP address or an IPv4/IPv6 CIDR range, each optionally with `:port`.
 */
export interface ProxySettings {
  /** `--proxy` / CLAIMS_PROXY: wins over the environment's proxies. */
  readonly proxy?: string | undefined;
  /** Where `HTTPS_PROXY`, `NO_PROXY` and the rest are read from (a library caller passes process.env to opt in). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

export type Route =
  | { readonly kind: 'direct'; readonly reason: string }
  | { readonly kind: 'proxy'; readonly proxy: URL; readonly reason: string };

export class ProxyUrlError extends Error {}

export function routeFor(target: URL, settings: ProxySettings = {}): Route {
  const env = settings.env ?? {};
  const chosen = chooseProxy(target, settings.proxy, env);
  if (chosen === undefined) return { kind: 'direct', reason: 'no proxy set' };
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  const exempt = noProxy === undefined ? undefined : matchingEntry(target, noProxy.value);
  if (exempt !== undefined) return { kind: 'direct', reason: `${noProxy?.name ?? 'NO_PROXY'} matches ${exempt}` };
  return { kind: 'proxy', proxy: parseProxyUrl(chosen.value, chosen.name), reason: chosen.name };
}

/** A proxy URL as people write it (`proxy.bank:3128` is `http://proxy.bank:3128`), never echoed with its password. */
export function parseProxyUrl(text: string, from: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ProxyUrlError(
      `${from}: expected a proxy URL such as http://proxy.bank.internal:3128, got one that does not parse`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProxyUrlError(`${from}: expected an http:// or https:// proxy, got ${url.protocol}//`);
  return url;
}

/** The proxy's address for logs and messages: credentials replaced. */
export function describeProxy(proxy: URL): string {
  const credentials = proxy.username !== '' || proxy.password !== '' ? '[REDACTED]@' : '';
  return `${proxy.protocol}//${credentials}${proxy.host}`;
}

/** Every form a proxy URL's credentials travel in, for the log's redactor. */
export function proxySecrets(route: Route): string[] {
  if (route.kind !== 'proxy' || (route.proxy.username === '' && route.proxy.password === '')) return [];
  const user = decodeURIComponent(route.proxy.username);
  const password = decodeURIComponent(route.proxy.password);
  return [
    Buffer.from(`${user}:${password}`).toString('base64'),
    `${route.proxy.username}:${route.proxy.password}`,
    route.proxy.password,
    password,
  ].filter((secret) => secret.length > 0);
}

function chooseProxy(
  target: URL,
  explicit: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { name: string; value: string } | undefined {
  if (explicit !== undefined && explicit.trim() !== '') return { name: '--proxy', value: explicit.trim() };
  const names = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy'];
  return firstSet(env, [...names, 'all_proxy', 'ALL_PROXY']);
}

function firstSet(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
}

/** The NO_PROXY entry that exempts the target, if one does. */
function matchingEntry(target: URL, list: string): string | undefined {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port === '' ? (target.protocol === 'https:' ? '443' : '80') : target.port;
  for (const raw of list.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return '*';
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name.includes('/') ? inCidr(host, name) : hostMatches(host, name)) return raw.trim();
  }
  return undefined;
}

function splitPort(entry: string): { name: string; entryPort: string | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) return { name: bracketed[1] ?? '', entryPort: bracketed[2] };
  // One colon: host:port; more: a bare IPv6 address.
  const colons = entry.split(':').length - 1;
  if (colons === 1) {
    const [name = '', entryPort] = entry.split(':');
    return { name, entryPort };
  }
  return { name: entry, entryPort: undefined };
}

function hostMatches(host: string, name: string): boolean {
  const bare = name.replace(/^\*?\./, '');
  if (isIP(host) !== 0 || isIP(bare) !== 0) return host === bare;
  return host === bare || host.endsWith(`.${bare}`);
}

function inCidr(host: string, cidr: string): boolean {
  const [network = '', bitsText = ''] = cidr.split('/');
  const family = isIP(network);
  if (family === 0 || isIP(host) !== family) return false;
  const bits = Number(bitsText);
  const toBits = (address: string) => (family === 4 ? ipv4Bits(address) : ipv6Bits(address));
  return toBits(host).slice(0, bits) === toBits(network).slice(0, bits);
}

function ipv4Bits(address: string): string {
  return address
    .split('.')
    .map((part) => Number(part).toString(2).padStart(8, '0'))
    .join('');
}

function ipv6Bits(address: string): string {
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups
    .map((group) =>
      parseInt(group || '0', 16)
        .toString(2)
        .padStart(16, '0'),
    )
    .join('');
}
