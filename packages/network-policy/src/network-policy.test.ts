import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callbackAddressRefusal, classifyAddress, isLoopbackHost, type AddressKind } from "./network-policy";

// An independent model of the ranges: integer arithmetic on the address value, no parser shared
// with the implementation. First match wins, as in the IANA registries' nesting (an anycast /32
// inside a reserved /24 is public).
const V4_RANGES: readonly [first: number, prefix: number, kind: AddressKind][] = [
  [0x00000000, 8, "unspecified"],
  [0x0a000000, 8, "private"],
  [0x646464c8, 32, "link-local"], // 100.100.100.200
  [0x64400000, 10, "private"], // 100.64/10
  [0x7f000000, 8, "loopback"],
  [0xa9fe0000, 16, "link-local"], // 169.254/16
  [0xac100000, 12, "private"], // 172.16/12
  [0xc0000009, 32, "public"], // 192.0.0.9 PCP anycast
  [0xc000000a, 32, "public"], // 192.0.0.10 TURN anycast
  [0xc0000000, 24, "reserved"], // 192.0.0.0/24
  [0xc0000200, 24, "documentation"], // 192.0.2.0/24
  [0xc0586300, 24, "reserved"], // 192.88.99.0/24
  [0xc0a80000, 16, "private"],
  [0xc6120000, 15, "benchmarking"], // 198.18/15
  [0xc6336400, 24, "documentation"], // 198.51.100.0/24
  [0xcb007100, 24, "documentation"], // 203.0.113.0/24
  [0xe0000000, 4, "multicast"],
  [0xf0000000, 4, "reserved"], // 240/4, 255.255.255.255 included
];

function v4Kind(value: number): AddressKind {
  for (const [first, prefix, kind] of V4_RANGES) {
    const size = 2 ** (32 - prefix);
    if (value >= first && value < first + size) return kind;
  }
  return "public";
}

function v4Text(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

const V6_RANGES: readonly [network: bigint, prefix: number, kind: AddressKind][] = [
  [0x0064ff9b0001n << 80n, 48, "private"], // 64:ff9b:1::/48
  [0x0100n << 112n, 64, "reserved"], // 100::/64
  [(0x20010001n << 96n) | 1n, 128, "public"],
  [(0x20010001n << 96n) | 2n, 128, "public"],
  [(0x20010001n << 96n) | 3n, 128, "public"],
  [0x20010003n << 96n, 32, "public"], // 2001:3::/32
  [0x200100040112n << 80n, 48, "public"], // 2001:4:112::/48
  [0x20010020n << 96n, 28, "public"], // 2001:20::/28
  [0x20010030n << 96n, 28, "public"], // 2001:30::/28
  [0x200100020000n << 80n, 48, "benchmarking"], // 2001:2::/48
  [0x2001n << 112n, 23, "reserved"], // 2001::/23
  [0x20010db8n << 96n, 32, "documentation"],
  [0x2002n << 112n, 16, "reserved"], // 6to4
  [0x3fffn << 112n, 20, "documentation"],
  [0x5f00n << 112n, 16, "reserved"],
  [0xfd000ec2000000000000000000000254n, 128, "link-local"],
  [0xfcn << 120n, 7, "private"],
  [0xfe80n << 112n, 10, "link-local"],
  [0xffn << 120n, 8, "multicast"],
];

function v6Kind(value: bigint): AddressKind {
  if (value >> 32n === 0xffffn) return v4Kind(Number(value & 0xffffffffn)); // IPv4-mapped
  if (value >> 32n === 0x64ff9bn << 64n) return "reserved"; // NAT64 well-known prefix: never called through
  if (value === 0n) return "unspecified";
  if (value === 1n) return "loopback";
  if (value >> 32n === 0n) return "reserved"; // IPv4-compatible
  for (const [network, prefix, kind] of V6_RANGES) {
    const shift = BigInt(128 - prefix);
    if (value >> shift === network >> shift) return kind;
  }
  return value >> 125n === 1n ? "public" : "reserved"; // global unicast is 2000::/3
}

function v6Full(value: bigint): string {
  return Array.from({ length: 8 }, (_, index) => ((value >> BigInt(112 - 16 * index)) & 0xffffn).toString(16)).join(":");
}

/** The form the URL parser gives (compressed, mapped IPv4 in hex): what a callback URL's hostname holds. */
function v6AsUrlHost(value: bigint): string {
  return new URL(`http://[${v6Full(value)}]/`).hostname.slice(1, -1);
}

const ipv4Value = fc.integer({ min: 0, max: 0xffffffff });

/** `network` with random low bits below `prefix`. */
const within = (network: bigint, prefix: number) =>
  fc.bigInt({ min: 0n, max: (1n << BigInt(128 - prefix)) - 1n }).map((suffix) => network | suffix);

/** 128-bit values, biased towards the prefixes that matter (a uniform draw would almost never hit them). */
const ipv6Value = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
  within(1n << 125n, 3), // 2000::/3, mostly public
  within(0x3fan << 118n, 10), // fe80::/10
  within(0x7en << 121n, 7), // fc00::/7
  within(0xffn << 120n, 8), // ff00::/8
  within(0x2001n << 112n, 23), // 2001::/23 and its public exceptions
  within(0x20010000n << 96n, 26), // 2001:0::/26: the exceptions' neighbourhood, denser
  within(0x20010db8n << 96n, 32),
  within(0x2002n << 112n, 16),
  within(0x3fffn << 112n, 19), // 3fff::/20 and the public half beside it
  within(0n, 96), // ::/96
  within(0x0100n << 112n, 63), // 100::/64 and its neighbour
  ipv4Value.map((v4) => (0xffffn << 32n) | BigInt(v4)), // ::ffff:0:0/96
  ipv4Value.map((v4) => (0x64ff9bn << 96n) | BigInt(v4)), // 64:ff9b::/96
  within(0x0064ff9b0001n << 80n, 47), // 64:ff9b:1::/48 and its neighbour
  fc.constantFrom(0n, 1n, 2n, 0xfd000ec2000000000000000000000254n, (0x20010001n << 96n) | 3n, (0x20010001n << 96n) | 4n),
);

describe("classifyAddress", () => {
  it.each<[string, AddressKind | null]>([
    ["0.0.0.0", "unspecified"],
    ["0.255.255.255", "unspecified"],
    ["1.0.0.0", "public"],
    ["::", "unspecified"],
    ["169.254.169.254", "link-local"],
    ["169.253.255.255", "public"],
    ["169.255.0.0", "public"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::", "link-local"],
    ["fec0::", "reserved"], // deprecated site-local, outside 2000::/3
    ["fd00:ec2::254", "link-local"],
    ["100.100.100.200", "link-local"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.255", "loopback"],
    ["128.0.0.0", "public"],
    ["::1", "loopback"],
    ["::2", "reserved"], // IPv4-compatible, deprecated
    ["10.0.0.0", "private"],
    ["9.255.255.255", "public"],
    ["11.0.0.0", "public"],
    ["172.15.255.255", "public"],
    ["172.16.0.0", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.0", "public"],
    ["192.168.0.0", "private"],
    ["192.169.0.0", "public"],
    ["100.63.255.255", "public"],
    ["100.64.0.0", "private"],
    ["100.127.255.255", "private"],
    ["100.128.0.0", "public"],
    ["fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"],
    ["fc00::", "private"],
    ["fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private"],
    ["fe00::", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:8.8.8.8", "public"],
    ["8.8.8.8", "public"],
    ["2001:4860:4860::8888", "public"],
    // The IANA special-purpose registries: documentation, benchmarking, reserved; multicast
    ["192.0.2.1", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.10", "documentation"],
    ["203.0.114.0", "public"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.20.0.0", "public"],
    ["198.17.255.255", "public"],
    ["192.0.0.1", "reserved"],
    ["192.0.0.170", "reserved"],
    ["192.0.0.9", "public"], // PCP anycast: globally reachable in the registry
    ["192.0.0.10", "public"], // TURN anycast
    ["192.0.1.0", "public"],
    ["192.88.99.1", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["223.255.255.255", "public"],
    ["::ffff:192.0.2.1", "documentation"],
    ["::ffff:c633:6407", "documentation"],
    ["::ffff:e000:1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["3fff:fff::1", "documentation"],
    ["3fff:1000::1", "public"],
    ["2001:2::1", "benchmarking"],
    ["2001::1", "reserved"], // Teredo
    ["2001:1::1", "public"], // PCP anycast
    ["2001:1::4", "reserved"],
    ["2001:3::1", "public"], // AMT
    ["2001:4:112::1", "public"], // AS112-v6
    ["2001:10::1", "reserved"], // the deprecated ORCHID
    ["2001:20::1", "public"], // ORCHIDv2
    ["2001:1ff:ffff::1", "reserved"],
    ["2001:200::1", "public"],
    ["2002:7f00:1::1", "reserved"], // 6to4
    ["2002:808:808::1", "reserved"],
    ["5f00::1", "reserved"], // SRv6 SIDs
    ["100::1", "reserved"], // discard-only
    ["ff02::1", "multicast"],
    ["ff0e::1", "multicast"],
    ["::7f00:1", "reserved"], // IPv4-compatible 127.0.0.1
    ["::c0a8:101", "reserved"],
    ["64:ff9b:1::a00:1", "private"], // local-use translation prefix
    // The well-known NAT64 prefix is never called through, whatever IPv4 address it carries.
    ["64:ff9b::7f00:1", "reserved"],
    ["64:ff9b::127.0.0.1", "reserved"],
    ["64:ff9b::a9fe:a9fe", "reserved"],
    ["64:ff9b::a00:1", "reserved"],
    ["64:ff9b::c000:201", "reserved"],
    ["64:ff9b::5db8:d70e", "reserved"],
    ["localhost", null],
    ["example.com", null],
    ["[::1]", null],
    ["", null],
  ])("%s → %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("classifies every IPv4 address by its range", () => {
    fc.assert(
      fc.property(ipv4Value, (value) => classifyAddress(v4Text(value)) === v4Kind(value)),
      { numRuns: 2000 },
    );
  });

  it("treats an IPv4-mapped IPv6 address, in either notation, as its IPv4 address", () => {
    fc.assert(
      fc.property(ipv4Value, (value) => {
        const kind = classifyAddress(v4Text(value));
        const hex = `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
        return (
          classifyAddress(`::ffff:${v4Text(value)}`) === kind &&
          classifyAddress(`::ffff:${hex}`) === kind &&
          classifyAddress(`0:0:0:0:0:ffff:${hex}`) === kind &&
          classifyAddress(v6AsUrlHost((0xffffn << 32n) | BigInt(value))) === kind
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("puts the first and last address of every IPv4 range inside it, the neighbours outside", () => {
    const edges = fc.constantFrom(...V4_RANGES).chain(([first, prefix, kind]) =>
      fc.record({
        inside: fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => first + offset),
        first: fc.constant(first),
        last: fc.constant(first + 2 ** (32 - prefix) - 1),
        kind: fc.constant(kind),
      }),
    );
    fc.assert(
      fc.property(edges, ({ inside, first, last, kind }) => {
        // An address inside may fall in an exception nested in the range (192.0.0.9 in 192.0.0.0/24).
        expect(classifyAddress(v4Text(inside))).toBe(v4Kind(inside));
        expect(classifyAddress(v4Text(first))).toBe(kind);
        expect(classifyAddress(v4Text(last))).toBe(kind);
        if (first > 0) expect(classifyAddress(v4Text(first - 1))).toBe(v4Kind(first - 1));
        if (last < 0xffffffff) expect(classifyAddress(v4Text(last + 1))).toBe(v4Kind(last + 1));
        expect(v4Kind(first - 1) === kind && v4Kind(last + 1) === kind).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("classifies IPv6 addresses by prefix, written in full or as the URL parser writes them", () => {
    fc.assert(
      fc.property(ipv6Value, (value) => {
        const kind = v6Kind(value);
        return classifyAddress(v6Full(value)) === kind && classifyAddress(v6AsUrlHost(value)) === kind;
      }),
      { numRuns: 3000 },
    );
  });
});

describe("isLoopbackHost (is the sandbox exposed?)", () => {
  it.each<[string, boolean]>([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["localhost", true],
    ["LOCALHOST.", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.20", false],
    ["10.0.0.5", false],
    ["sandbox.internal", false],
    ["localhost.example.com", false],
    ["64:ff9b::7f00:1", false], // a NAT64 address is never this machine's own listener (and never called)
  ])("%s → %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe("callbackAddressRefusal", () => {
  const onLoopback = { allowLoopbackAndPrivate: true };
  const exposed = { allowLoopbackAndPrivate: false };

  it.each<[string, boolean, boolean]>([
    // address, refused on a loopback sandbox, refused on an exposed one
    ["169.254.169.254", true, true],
    ["::ffff:169.254.169.254", true, true],
    ["fe80::1", true, true],
    ["0.0.0.0", true, true],
    ["::", true, true],
    ["127.0.0.1", false, true],
    ["::1", false, true],
    ["::ffff:7f00:1", false, true],
    ["10.1.2.3", false, true],
    ["172.20.0.1", false, true],
    ["192.168.0.10", false, true],
    ["100.64.0.1", false, true],
    ["fd12:3456::1", false, true],
    ["93.184.215.14", false, false],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", false, false],
    ["not-an-address", true, true],
    // Documentation, benchmarking, multicast and reserved blocks: never, in either mode.
    ["192.0.2.10", true, true],
    ["198.18.0.1", true, true],
    ["198.19.200.1", true, true],
    ["198.51.100.1", true, true],
    ["203.0.113.10", true, true],
    ["224.0.0.251", true, true],
    ["239.1.2.3", true, true],
    ["240.0.0.1", true, true],
    ["255.255.255.255", true, true],
    ["192.0.0.8", true, true],
    ["::ffff:203.0.113.10", true, true],
    ["::ffff:c612:1", true, true],
    ["::ffff:e000:fb", true, true],
    ["2001:db8::10", true, true],
    ["3fff:123::1", true, true],
    ["2001:2::5", true, true],
    ["2001::5", true, true],
    ["2002:c000:20a::1", true, true],
    ["5f00:1::1", true, true],
    ["100::1", true, true],
    ["ff02::fb", true, true],
    ["::7f00:1", true, true],
    ["::a00:1", true, true],
    // The well-known NAT64 prefix, whatever it carries: never called through.
    ["64:ff9b::a9fe:a9fe", true, true],
    ["64:ff9b::c000:20a", true, true],
    ["64:ff9b::7f00:1", true, true],
    ["64:ff9b::a00:1", true, true],
    ["64:ff9b::5db8:d70e", true, true],
    // The local-use translation prefix is private: refused when exposed.
    ["64:ff9b:1::a00:1", false, true],
    // Globally reachable exceptions the registries nest inside special blocks.
    ["192.0.0.9", false, false],
    ["2001:1::1", false, false],
    ["2001:4:112::1", false, false],
  ])("%s: refused on loopback %s, exposed %s", (address, onLoopbackRefused, exposedRefused) => {
    expect(callbackAddressRefusal(address, onLoopback) !== null).toBe(onLoopbackRefused);
    expect(callbackAddressRefusal(address, exposed) !== null).toBe(exposedRefused);
  });

  it("names the setting that lifts a refusal, and only where one does", () => {
    expect(callbackAddressRefusal("10.0.0.1", exposed)).toContain("SANDBOX_ALLOW_PRIVATE_CALLBACKS=1");
    expect(callbackAddressRefusal("169.254.169.254", onLoopback)).toContain("never");
    expect(callbackAddressRefusal("203.0.113.10", onLoopback)).toContain("never");
  });

  it("refuses this host's own addresses when exposed, in any spelling, and allows them on loopback", () => {
    // A public address, so that nothing but being this host's refuses it.
    const hostAddresses = ["127.0.0.1", "93.184.215.14", "2606:4700::6810:84e5", "fe80::1"];
    for (const address of [
      "93.184.215.14",
      "::ffff:93.184.215.14",
      "::ffff:5db8:d70e",
      "2606:4700::6810:84e5",
      "2606:4700:0:0:0:0:6810:84E5",
    ]) {
      expect(callbackAddressRefusal(address, exposed, hostAddresses), address).toMatch(/this host.*SANDBOX_ALLOW_PRIVATE_CALLBACKS=1/);
      expect(callbackAddressRefusal(address, onLoopback, hostAddresses), address).toBeNull();
      expect(callbackAddressRefusal(address, exposed), address).toBeNull();
    }
    expect(callbackAddressRefusal("93.184.215.15", exposed, hostAddresses)).toBeNull();
  });
});
