import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../src/env';
import { isFetchableAddress, parseAddressRanges } from '../../src/lib/public-address';

describe('isFetchableAddress', () => {
  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.216.34'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:82a::200e'],
    // An IPv4-mapped public address is the public address.
    ['::ffff:8.8.8.8'],
  ])('allows the public address %s', (address) => {
    expect(isFetchableAddress(address)).toBe(true);
  });

  it.each([
    // loopback, in every spelling an address may take
    ['127.0.0.1'],
    ['127.255.255.254'],
    ['2130706433'],
    ['0177.0.0.1'],
    ['0x7f.1'],
    ['0x7f000001'],
    ['127.1'],
    ['::1'],
    ['0:0:0:0:0:0:0:1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['::127.0.0.1'],
    ['::7f00:1'],
    // private, link-local (cloud metadata), carrier-grade NAT
    ['10.0.0.1'],
    ['172.16.5.4'],
    ['192.168.1.1'],
    ['::ffff:192.168.1.1'],
    ['169.254.169.254'],
    ['::ffff:169.254.169.254'],
    ['100.64.0.1'],
    ['100.127.255.254'],
    // unspecified, broadcast, multicast, reserved, benchmarking, documentation
    ['0.0.0.0'],
    ['0.1.2.3'],
    ['255.255.255.255'],
    ['224.0.0.1'],
    ['239.255.255.250'],
    ['240.0.0.1'],
    ['198.18.0.1'],
    ['192.0.0.8'],
    ['192.0.2.1'],
    ['198.51.100.7'],
    ['203.0.113.9'],
    // IPv6: unspecified, link-local, unique local, site-local, multicast, documentation, translation
    ['::'],
    ['fe80::1'],
    ['fc00::1'],
    ['fd12:3456:789a::1'],
    ['fec0::1'],
    ['ff02::1'],
    ['2001:db8::1'],
    ['64:ff9b::7f00:1'],
    ['2002:7f00:1::1'],
    ['2001:0:4136:e378::1'],
    ['100::1'],
    // not an address at all
    ['localhost'],
    [''],
    ['127.0.0.1.nip.io'],
  ])('refuses %s', (address) => {
    expect(isFetchableAddress(address)).toBe(false);
  });

  it('lets an operator allow chosen private ranges, and only those', () => {
    const allowed = parseAddressRanges('127.0.0.0/8, fd00::/8,192.168.10.5');
    expect(isFetchableAddress('127.0.0.1', allowed)).toBe(true);
    expect(isFetchableAddress('::ffff:127.0.0.1', allowed)).toBe(true);
    expect(isFetchableAddress('fd12::1', allowed)).toBe(true);
    expect(isFetchableAddress('192.168.10.5', allowed)).toBe(true);
    expect(isFetchableAddress('192.168.10.6', allowed)).toBe(false);
    expect(isFetchableAddress('::1', allowed)).toBe(false);
    expect(isFetchableAddress('10.0.0.1', allowed)).toBe(false);
    expect(isFetchableAddress('169.254.169.254', allowed)).toBe(false);
  });
});

describe('parseAddressRanges', () => {
  it('reads nothing from an empty setting', () => {
    expect(parseAddressRanges('')).toEqual([]);
    expect(parseAddressRanges(' , ')).toEqual([]);
  });

  it('names the entry that is not a range', () => {
    expect(() => parseAddressRanges('10.0.0.0/8, intranet')).toThrow(
      'intranet is not an address or a CIDR range',
    );
    expect(() => parseAddressRanges('10.0.0.0/33')).toThrow('10.0.0.0/33');
  });
});

describe('REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES', () => {
  it('is empty by default and stops the server with one clear line when it is not a list of ranges', () => {
    expect(parseEnv({}).REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES).toEqual([]);
    expect(
      parseEnv({ REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES: '10.0.0.0/8' })
        .REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES,
    ).toHaveLength(1);
    expect(() => parseEnv({ REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES: '10.0.0.0/8,intranet' })).toThrow(
      'REMOTE_UPLOAD_ALLOWED_PRIVATE_ADDRESSES must be comma-separated CIDRs (intranet is not an address or a CIDR range)',
    );
  });
});
