import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a per-client limit counts under. An IPv4 address is one client. An IPv6 customer is usually given a whole
 * /64 (2^64 addresses), so IPv6 addresses are counted by their network prefix: one address each would let one
 * customer be 2^64 clients. `CLIENT_IPV6_PREFIX` (1–128, default 64) sets the prefix length for every service.
 */
export const DEFAULT_IPV6_PREFIX = 64;

export function ipv6PrefixFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.CLIENT_IPV6_PREFIX ?? DEFAULT_IPV6_PREFIX);
  return Number.isInteger(value) && value >= 1 && value <= 128 ? value : DEFAULT_IPV6_PREFIX;
}

/** The eight 16-bit groups of an IPv6 address (with an embedded IPv4 tail expanded), or null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

/**
 * `203.0.113.7` → `203.0.113.7`; `2001:db8:1:2:aaaa::1` → `2001:db8:1:2::/64`. An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`, as a dual-stack socket reports IPv4 peers) is its IPv4 address. Anything else is returned as
 * it is.
 */
export function clientKey(address: string, ipv6Prefix: number = ipv6PrefixFromEnv()): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  const masked = groups.map((group, i) => {
    const bitsLeft = ipv6Prefix - i * 16;
    if (bitsLeft >= 16) return group;
    if (bitsLeft <= 0) return 0;
    return group & (0xffff << (16 - bitsLeft)) & 0xffff;
  });
  // Compressed the usual way (longest run of zero groups as ::) so that equal prefixes give equal keys.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (masked[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && masked[j] === 0) j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  const hex = masked.map((g) => g.toString(16));
  const text = best.start < 0 ? hex.join(':') : `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
  return `${text}/${ipv6Prefix}`;
}
