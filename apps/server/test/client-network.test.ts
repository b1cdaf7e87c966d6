import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../src/lib/client-network';

describe('the network a throttle counts a client by', () => {
  it('is the address itself for IPv4, and the IPv4 address an IPv4-mapped IPv6 one carries', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts other spellings of an IPv4 address as the address', () => {
    expect(clientNetwork('203.000.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('0xcb.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('127.1')).toBe('127.0.0.1');
    expect(clientNetwork('010.0.0.1')).toBe('8.0.0.1');
  });

  it('is the /64 for IPv6, however the address is written: one subscriber gets a whole /64', () => {
    const network = clientNetwork('2001:db8:1:2::1');
    expect(network).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(network);
    expect(clientNetwork('2001:DB8:1:2:abcd::9')).toBe(network);
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(network);
  });

  it('keeps anything unparsable as it came, so it still counts on its own', () => {
    expect(clientNetwork('not an address')).toBe('not an address');
  });
});
