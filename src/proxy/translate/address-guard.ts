// Which addresses a user-supplied URL may make the gateway connect to. Image URLs come from clients, so
// loopback, private, link-local, ULA and other special-purpose ranges are refused (SSRF). The check runs
// on the RESOLVED address inside the socket's `lookup`, so a name that re-resolves to 127.0.0.1 between a
// pre-check and the connect (DNS rebinding) is still refused. IPv4-mapped IPv6 forms are matched by
// BlockList against the IPv4 ranges.
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const BLOCKED = new BlockList();
const IPV4_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const IPV6_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64 (could reach any IPv4)
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4 (embeds IPv4)
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of IPV4_RANGES) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_RANGES) BLOCKED.addSubnet(network, prefix, 'ipv6');

/** True for an IP literal the gateway must not connect to on a client's behalf. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  return BLOCKED.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a loopback/private/link-local address the gateway does not fetch from`);
    this.name = 'BlockedAddressError';
  }
}

/** A `lookup` for http.request that resolves every address of the name and refuses the connection if any is blocked. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = Array.isArray(addresses) ? addresses : [];
    const blocked = list.find((entry) => isBlockedAddress(entry.address));
    if (list.length === 0 || blocked) return callback(new BlockedAddressError(hostname, blocked?.address ?? 'no address'), '', 0);
    if (options.all === true) return callback(null, list);
    const first = list[0]!;
    return callback(null, first.address, first.family);
  });
};
