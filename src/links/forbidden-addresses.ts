import { BlockList, isIP } from 'node:net';

/**
 * The addresses a document link may never reach, whatever host named it (docs/import.md,
 * "Evidence in object storage or behind links"): link-local (the cloud's instance
 * metadata at 169.254.169.254 among them), unspecified and multicast. And those only a listed
 * host may resolve to, a bank's document system being inside its network: loopback and private.
 */
const never = new BlockList();
never.addSubnet('0.0.0.0', 8, 'ipv4');
never.addSubnet('169.254.0.0', 16, 'ipv4');
never.addSubnet('224.0.0.0', 4, 'ipv4');
never.addSubnet('240.0.0.0', 4, 'ipv4');
never.addAddress('::', 'ipv6');
never.addSubnet('fe80::', 10, 'ipv6');
never.addSubnet('ff00::', 8, 'ipv6');
never.addSubnet('fd00:ec2::', 32, 'ipv6');

const inside = new BlockList();
inside.addSubnet('127.0.0.0', 8, 'ipv4');
inside.addSubnet('10.0.0.0', 8, 'ipv4');
inside.addSubnet('172.16.0.0', 12, 'ipv4');
inside.addSubnet('192.168.0.0', 16, 'ipv4');
inside.addSubnet('100.64.0.0', 10, 'ipv4');
inside.addAddress('::1', 'ipv6');
inside.addSubnet('fc00::', 7, 'ipv6');

/** An IPv4 address written in IPv6 (`::ffff:127.0.0.1`) is that IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why a link may not reach `address`, or undefined when it may; `listed`: its host is one the mapping allows. */
export function forbiddenReason(address: string, listed: boolean): string | undefined {
  const { address: plain, family } = unmapped(address);
  if (never.check(plain, family)) return `${address} is a link-local, metadata, unspecified or multicast address`;
  if (!listed && inside.check(plain, family)) return `${address} is a loopback or private address`;
  return undefined;
}
