import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * The special-purpose ranges of the IANA IPv4 and IPv6 registries (RFC 6890 and its successors), plus
 * multicast, reserved and deprecated space: no connector fetches from them unless private networks
 * are allowed. Addresses that carry an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by it.
 */

/** Where an address was refused: the range and what it is for. */
export interface SpecialRange {
  range: string;
  name: string;
}

/** A refused address: the range (or, `outside`, the only range it may be in), and the IPv4 address it was judged by when it carries one. */
export interface SpecialAddress extends SpecialRange {
  address: string;
  carries?: string;
  outside?: boolean;
}

/** The refusal in words: "192.0.2.1 is in 192.0.2.0/24 (documentation)", or "example.test resolves to …, which is in …". */
export function describeSpecial(found: SpecialAddress, hostname?: string): string {
  const subject = found.carries ? `${found.address} (IPv4 ${found.carries})` : found.address;
  const where = `${found.outside ? 'outside' : 'in'} ${found.range} (${found.name})`;
  return hostname ? `${hostname} resolves to ${subject}, which is ${where}` : `${subject} is ${where}`;
}

interface Rule extends SpecialRange {
  list: BlockList;
}

const rule = (network: string, prefix: number, family: 'ipv4' | 'ipv6', name: string): Rule => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { range: `${network}/${prefix}`, name, list };
};

// Narrower ranges before the wider ones that contain them, so the refusal names the closest.
const IPV4: Rule[] = [
  rule('0.0.0.0', 8, 'ipv4', 'this network'),
  rule('10.0.0.0', 8, 'ipv4', 'private use'),
  rule('100.64.0.0', 10, 'ipv4', 'shared address space'),
  rule('127.0.0.0', 8, 'ipv4', 'loopback'),
  rule('169.254.0.0', 16, 'ipv4', 'link-local'),
  rule('172.16.0.0', 12, 'ipv4', 'private use'),
  rule('192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'),
  rule('192.0.2.0', 24, 'ipv4', 'documentation'),
  rule('192.88.99.0', 24, 'ipv4', '6to4 relay anycast'),
  rule('192.168.0.0', 16, 'ipv4', 'private use'),
  rule('198.18.0.0', 15, 'ipv4', 'benchmarking'),
  rule('198.51.100.0', 24, 'ipv4', 'documentation'),
  rule('203.0.113.0', 24, 'ipv4', 'documentation'),
  rule('224.0.0.0', 4, 'ipv4', 'multicast'),
  rule('255.255.255.255', 32, 'ipv4', 'limited broadcast'),
  rule('240.0.0.0', 4, 'ipv4', 'reserved'),
];

const IPV6: Rule[] = [
  rule('::', 128, 'ipv6', 'unspecified'),
  rule('::1', 128, 'ipv6', 'loopback'),
  rule('::', 96, 'ipv6', 'IPv4-compatible'),
  // The local-use NAT64 prefix is never globally reachable, and where the IPv4 address sits in it
  // depends on the operator's prefix length, so it cannot be read reliably: refused whole.
  rule('64:ff9b:1::', 48, 'ipv6', 'local-use NAT64'),
  rule('100::', 64, 'ipv6', 'discard-only'),
  rule('2001:db8::', 32, 'ipv6', 'documentation'),
  rule('2001::', 23, 'ipv6', 'IETF protocol assignments'),
  rule('3fff::', 20, 'ipv6', 'documentation'),
  rule('5f00::', 16, 'ipv6', 'segment routing'),
  rule('fc00::', 7, 'ipv6', 'unique local'),
  rule('fe80::', 10, 'ipv6', 'link-local'),
  rule('fec0::', 10, 'ipv6', 'site-local'),
  rule('ff00::', 8, 'ipv6', 'multicast'),
];

/** Ranges whose IPv4 address is the one that counts: the 32 bits at `offset` (in bytes). */
const CARRIERS: { rule: Rule; offset: number }[] = [
  { rule: rule('::ffff:0:0', 96, 'ipv6', 'IPv4-mapped'), offset: 12 },
  { rule: rule('64:ff9b::', 96, 'ipv6', 'NAT64'), offset: 12 },
  { rule: rule('2002::', 16, 'ipv6', '6to4'), offset: 2 },
];

/** Only global unicast space is assigned for use on the internet; anything outside it is refused too. */
const GLOBAL_UNICAST = rule('2000::', 3, 'ipv6', 'global unicast');

/** The 16 bytes of an IPv6 address (a zone such as `%eth0` ignored); undefined when it is not one. */
export function ipv6Bytes(text: string): Uint8Array | undefined {
  const address = text.replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  // A dotted IPv4 tail (`::ffff:192.0.2.1`) is two more groups.
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const group = (high: string | undefined, low: string | undefined): string => ((Number(high) << 8) | Number(low)).toString(16);
  const hex = dotted ? `${dotted[1]}${group(dotted[2], dotted[3])}:${group(dotted[4], dotted[5])}` : address;
  const [head = '', tail] = hex.split('::');
  const groups = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const before = groups(head);
  const after = groups(tail);
  const all = [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  const bytes = new Uint8Array(16);
  all.forEach((value, i) => {
    const number = parseInt(value, 16);
    bytes[i * 2] = number >> 8;
    bytes[i * 2 + 1] = number & 0xff;
  });
  return bytes;
}

const ipv4At = (bytes: Uint8Array, offset: number): string => Array.from(bytes.subarray(offset, offset + 4)).join('.');

function ipv4Range(address: string): SpecialRange | undefined {
  const found = IPV4.find((candidate) => candidate.list.check(address, 'ipv4'));
  return found && { range: found.range, name: found.name };
}

/**
 * Why an address is not one to fetch from — the special-purpose range it is in, or that an IPv4
 * address it carries is in — or undefined for a public address. Anything that is not an IP address
 * is refused too (as `not an address`): only resolved addresses are judged.
 */
export function specialPurpose(address: string): SpecialAddress | undefined {
  if (isIPv4(address)) {
    const range = ipv4Range(address);
    return range && { address, ...range };
  }
  const bytes = ipv6Bytes(address);
  if (!bytes) return { address, range: 'any IP range', name: 'not an IP address', outside: true };
  const plain = address.replace(/%.*$/, '');
  for (const carrier of CARRIERS) {
    if (!carrier.rule.list.check(plain, 'ipv6')) continue;
    const carried = ipv4At(bytes, carrier.offset);
    const range = ipv4Range(carried);
    return range && { address, carries: carried, ...range };
  }
  const found = IPV6.find((candidate) => candidate.list.check(plain, 'ipv6'));
  if (found) return { address, range: found.range, name: found.name };
  if (!GLOBAL_UNICAST.list.check(plain, 'ipv6')) return { address, range: GLOBAL_UNICAST.range, name: GLOBAL_UNICAST.name, outside: true };
  return undefined;
}
