import { describe, expect, it } from 'vitest';
import { clientKey, ipv6PrefixFromEnv } from './client-key.ts';

describe('clientKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('127.0.5.9')).toBe('127.0.5.9');
  });

  it('counts every address of one IPv6 /64 as one client', () => {
    const a = clientKey('2001:db8:1:2:aaaa:bbbb:cccc:1', 64);
    const b = clientKey('2001:db8:1:2::ffff', 64);
    expect(a).toBe('2001:db8:1:2::/64');
    expect(b).toBe(a);
    expect(clientKey('2001:db8:1:3::1', 64)).not.toBe(a);
  });

  it('takes the prefix length from CLIENT_IPV6_PREFIX', () => {
    expect(ipv6PrefixFromEnv({ CLIENT_IPV6_PREFIX: '48' })).toBe(48);
    expect(ipv6PrefixFromEnv({ CLIENT_IPV6_PREFIX: 'nonsense' })).toBe(64);
    expect(clientKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientKey('2001:db8:1:2::1', 56)).toBe(clientKey('2001:db8:1:ff::1', 56));
    expect(clientKey('2001:db8::1', 128)).toBe('2001:db8::1/128');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('returns what is not an address unchanged', () => {
    expect(clientKey('')).toBe('');
    expect(clientKey('unknown')).toBe('unknown');
  });
});
