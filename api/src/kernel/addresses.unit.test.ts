import { describe, expect, it } from 'vitest';
import { describeSpecial, ipv6Bytes, specialPurpose } from './addresses.js';

const where = (address: string): string | undefined => {
  const found = specialPurpose(address);
  return found && `${found.range} ${found.name}${found.carries ? ` via ${found.carries}` : ''}`;
};

describe('special-purpose addresses', () => {
  it.each([
    ['0.0.0.0', '0.0.0.0/8 this network'],
    ['0.255.255.255', '0.0.0.0/8 this network'],
    ['10.0.0.1', '10.0.0.0/8 private use'],
    ['10.255.255.255', '10.0.0.0/8 private use'],
    ['100.64.0.1', '100.64.0.0/10 shared address space'],
    ['100.127.255.254', '100.64.0.0/10 shared address space'],
    ['127.0.0.1', '127.0.0.0/8 loopback'],
    ['127.255.255.255', '127.0.0.0/8 loopback'],
    ['169.254.169.254', '169.254.0.0/16 link-local'],
    ['172.16.0.1', '172.16.0.0/12 private use'],
    ['172.31.255.255', '172.16.0.0/12 private use'],
    ['192.0.0.8', '192.0.0.0/24 IETF protocol assignments'],
    ['192.0.0.170', '192.0.0.0/24 IETF protocol assignments'],
    ['192.0.2.1', '192.0.2.0/24 documentation'],
    ['192.0.2.255', '192.0.2.0/24 documentation'],
    ['192.88.99.1', '192.88.99.0/24 6to4 relay anycast'],
    ['192.168.1.1', '192.168.0.0/16 private use'],
    ['198.18.0.1', '198.18.0.0/15 benchmarking'],
    ['198.19.255.255', '198.18.0.0/15 benchmarking'],
    ['198.51.100.7', '198.51.100.0/24 documentation'],
    ['203.0.113.9', '203.0.113.0/24 documentation'],
    ['224.0.0.1', '224.0.0.0/4 multicast'],
    ['239.255.255.250', '224.0.0.0/4 multicast'],
    ['240.0.0.1', '240.0.0.0/4 reserved'],
    ['255.255.255.254', '240.0.0.0/4 reserved'],
    ['255.255.255.255', '255.255.255.255/32 limited broadcast'],
  ])('IPv4 %s is in %s', (address, expected) => expect(where(address)).toBe(expected));

  it.each([
    ['::', '::/128 unspecified'],
    ['::1', '::1/128 loopback'],
    ['0:0:0:0:0:0:0:1', '::1/128 loopback'],
    ['::7f00:1', '::/96 IPv4-compatible'],
    ['::127.0.0.1', '::/96 IPv4-compatible'],
    ['64:ff9b:1::a00:1', '64:ff9b:1::/48 local-use NAT64'],
    ['64:ff9b:1:ffff::8.8.8.8', '64:ff9b:1::/48 local-use NAT64'],
    ['100::1', '100::/64 discard-only'],
    ['2001::1', '2001::/23 IETF protocol assignments'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/23 IETF protocol assignments'],
    ['2001:2::1', '2001::/23 IETF protocol assignments'],
    ['2001:db8::1', '2001:db8::/32 documentation'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8::/32 documentation'],
    ['3fff::1', '3fff::/20 documentation'],
    ['5f00::1', '5f00::/16 segment routing'],
    ['fc00::1', 'fc00::/7 unique local'],
    ['fd12:3456:789a::1', 'fc00::/7 unique local'],
    ['fe80::1', 'fe80::/10 link-local'],
    ['fe80::1%eth0', 'fe80::/10 link-local'],
    ['febf::1', 'fe80::/10 link-local'],
    ['fec0::1', 'fec0::/10 site-local'],
    ['ff02::1', 'ff00::/8 multicast'],
    ['1::1', '2000::/3 global unicast'],
    ['4000::1', '2000::/3 global unicast'],
  ])('IPv6 %s is in %s', (address, expected) => expect(where(address)).toBe(expected));

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.0/8 loopback via 127.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.0/8 loopback via 127.0.0.1'],
    ['::FFFF:C000:0201', '192.0.2.0/24 documentation via 192.0.2.1'],
    ['::ffff:169.254.169.254', '169.254.0.0/16 link-local via 169.254.169.254'],
    ['64:ff9b::7f00:1', '127.0.0.0/8 loopback via 127.0.0.1'],
    ['64:ff9b::10.0.0.1', '10.0.0.0/8 private use via 10.0.0.1'],
    ['64:ff9b::c633:6407', '198.51.100.0/24 documentation via 198.51.100.7'],
    ['2002:7f00:1::', '127.0.0.0/8 loopback via 127.0.0.1'],
    ['2002:c0a8:101:1::1', '192.168.0.0/16 private use via 192.168.1.1'],
    ['2002:a9fe:a9fe::', '169.254.0.0/16 link-local via 169.254.169.254'],
  ])('%s carries an IPv4 address in %s', (address, expected) => expect(where(address)).toBe(expected));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.3.1',
    '192.88.98.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '203.0.114.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => expect(specialPurpose(address)).toBeUndefined());

  it('refuses what is not an IP address at all', () => {
    expect(specialPurpose('example.test')).toMatchObject({ name: 'not an IP address' });
    expect(specialPurpose('')).toMatchObject({ name: 'not an IP address' });
  });

  it('says where, and through which IPv4 address', () => {
    expect(describeSpecial(specialPurpose('192.0.2.1')!)).toBe('192.0.2.1 is in 192.0.2.0/24 (documentation)');
    expect(describeSpecial(specialPurpose('::ffff:c000:201')!)).toBe('::ffff:c000:201 (IPv4 192.0.2.1) is in 192.0.2.0/24 (documentation)');
    expect(describeSpecial(specialPurpose('10.1.2.3')!, 'hr.example.test')).toBe('hr.example.test resolves to 10.1.2.3, which is in 10.0.0.0/8 (private use)');
    expect(describeSpecial(specialPurpose('4000::1')!)).toBe('4000::1 is outside 2000::/3 (global unicast)');
  });
});

describe('IPv6 bytes', () => {
  const hex = (address: string): string => Buffer.from(ipv6Bytes(address) ?? []).toString('hex');
  it('reads every form', () => {
    expect(hex('::')).toBe('0'.repeat(32));
    expect(hex('::1')).toBe(`${'0'.repeat(31)}1`);
    expect(hex('2001:db8::8a2e:370:7334')).toBe('20010db80000000000008a2e03707334');
    expect(hex('::ffff:192.0.2.1')).toBe('00000000000000000000ffffc0000201');
    expect(hex('fe80::1%eth0')).toBe('fe800000000000000000000000000001');
    expect(hex('1:2:3:4:5:6:7:8')).toBe('00010002000300040005000600070008');
    expect(ipv6Bytes('192.0.2.1')).toBeUndefined();
    expect(ipv6Bytes('not::an::address')).toBeUndefined();
  });
});
