import ipaddr from 'ipaddr.js';

/** A network in CIDR terms: its address and prefix length. */
export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Global unicast IPv6 (2000::/3): everything outside it is special-purpose or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Parses a comma-separated list of CIDRs (`10.0.0.0/8, fd00::/8`); a bare address is a range of one.
 * Throws naming the first entry that is not one.
 */
export function parseAddressRanges(list: string): AddressRange[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes('/')) return ipaddr.parseCIDR(entry);
        const address = ipaddr.parse(entry);
        return [address, address.kind() === 'ipv4' ? 32 : 128];
      } catch {
        throw new Error(`${entry} is not an address or a CIDR range`);
      }
    });
}

/**
 * Whether the server may connect to `address` (an IP literal) on a user's behalf: a public unicast
 * address, or one inside a range the operator allowed. Loopback, private, link-local, carrier-grade
 * NAT, multicast, broadcast, unspecified, documentation and other reserved ranges are refused, and an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries. Anything unparsable is refused.
 */
export function isFetchableAddress(address: string, allowed: readonly AddressRange[] = []): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits)))
    return true;
  if (parsed.range() !== 'unicast') return false;
  // ipaddr.js calls every IPv6 address outside its special list unicast, including the deprecated
  // IPv4-compatible ::a.b.c.d, so IPv6 must also be globally routable.
  return parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST_V6);
}
