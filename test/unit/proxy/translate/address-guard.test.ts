// The SSRF guard for client-supplied image URLs: special-purpose ranges are refused, whether given as IP
// literals, IPv4-mapped IPv6, or as names that resolve to them (checked inside the socket lookup).
import { expect } from 'chai';
import { BlockedAddressError, guardedLookup, isBlockedAddress } from '../../../../src/proxy/translate/address-guard.ts';

describe('address guard', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'ff02::1',
    'not-an-ip',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'];

  for (const address of blocked) it(`blocks ${address}`, () => expect(isBlockedAddress(address)).to.equal(true));
  for (const address of allowed) it(`allows ${address}`, () => expect(isBlockedAddress(address)).to.equal(false));

  it('refuses a name that resolves to loopback, inside the lookup', async () => {
    const error = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (err) => resolve(err)));
    expect(error).to.be.instanceOf(BlockedAddressError);
    expect(error?.message).to.match(/localhost resolves to/);
  });

  it('answers the all:true form used by happy-eyeballs connects', async () => {
    const error = await new Promise<Error | null>((resolve) => guardedLookup('localhost', { all: true }, (err) => resolve(err)));
    expect(error).to.be.instanceOf(BlockedAddressError);
  });
});
