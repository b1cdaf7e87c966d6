import ipaddr from 'ipaddr.js';

/**
 * What address-keyed throttles count a client by. An IPv6 subscriber is usually handed a whole /64
 * (2^64 addresses), so counting single IPv6 addresses would let one client rotate past every limit;
 * it is counted by its /64. IPv4 (also when mapped into IPv6) counts by the address.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
