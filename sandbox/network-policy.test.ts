import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callbackAddressRefusal, classifyAddress, isLoopbackHost, type AddressKind } from "./network-policy";

// An independent model of the ranges: integer arithmetic on the address value, no parser shared
// with the implementation.
const V4_RANGES: readonly [first: number, prefix: number, kind: AddressKind][] = [
  [0x00000000, 8, "unspecified"],
  [0xa9fe0000, 16, "link-local"], // 169.254/16
  [0x646464c8, 32, "link-local"], // 100.100.100.200
  [0x7f000000, 8, "loopback"],
  [0x0a000000, 8, "private"],
  [0xac100000, 12, "private"], // 172.16/12
  [0xc0a80000, 16, "private"],
  [0x64400000, 10, "private"], // 100.64/10
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

function v6Kind(value: bigint): AddressKind {
  if (value === 0n) return "unspecified";
  if (value === 1n) return "loopback";
  if (value >> 32n === 0xffffn) return v4Kind(Number(value & 0xffffffffn));
  if (value >> 118n === 0xfe80n >> 6n) return "link-local";
  if (value === 0xfd000ec2000000000000000000000254n) return "link-local";
  if (value >> 121n === 0xfcn >> 1n) return "private";
  return "public";
}

function v6Full(value: bigint): string {
  return Array.from({ length: 8 }, (_, index) => ((value >> BigInt(112 - 16 * index)) & 0xffffn).toString(16)).join(":");
}

/** The form the URL parser gives (compressed, mapped IPv4 in hex): what a callback URL's hostname holds. */
function v6AsUrlHost(value: bigint): string {
  return new URL(`http://[${v6Full(value)}]/`).hostname.slice(1, -1);
}

const ipv4Value = fc.integer({ min: 0, max: 0xffffffff });

/** 128-bit values, biased towards the prefixes that matter (a uniform draw would almost never hit them). */
const ipv6Value = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
  fc.bigInt({ min: 0n, max: (1n << 118n) - 1n }).map((suffix) => (0x3fan << 118n) | suffix), // fe80::/10
  fc.bigInt({ min: 0n, max: (1n << 121n) - 1n }).map((suffix) => (0x7en << 121n) | suffix), // fc00::/7
  ipv4Value.map((v4) => (0xffffn << 32n) | BigInt(v4)), // ::ffff:0:0/96
  fc.constantFrom(0n, 1n, 2n, 0xfd000ec2000000000000000000000254n),
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
    ["fec0::", "public"],
    ["fd00:ec2::254", "link-local"],
    ["100.100.100.200", "link-local"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.255", "loopback"],
    ["128.0.0.0", "public"],
    ["::1", "loopback"],
    ["::2", "public"],
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
    ["fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "public"],
    ["fc00::", "private"],
    ["fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private"],
    ["fe00::", "public"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:8.8.8.8", "public"],
    ["8.8.8.8", "public"],
    ["2001:4860:4860::8888", "public"],
    ["localhost", null],
    ["example.com", null],
    ["[::1]", null],
    ["", null],
  ])("%s → %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("classifies every IPv4 address by its range", () => {
    fc.assert(fc.property(ipv4Value, (value) => classifyAddress(v4Text(value)) === v4Kind(value)), { numRuns: 2000 });
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
      fc.record({ inside: fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => first + offset), first: fc.constant(first), last: fc.constant(first + 2 ** (32 - prefix) - 1), kind: fc.constant(kind) }),
    );
    fc.assert(
      fc.property(edges, ({ inside, first, last, kind }) => {
        expect(classifyAddress(v4Text(inside))).toBe(kind);
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
  ])("%s: refused on loopback %s, exposed %s", (address, onLoopbackRefused, exposedRefused) => {
    expect(callbackAddressRefusal(address, onLoopback) !== null).toBe(onLoopbackRefused);
    expect(callbackAddressRefusal(address, exposed) !== null).toBe(exposedRefused);
  });

  it("names the setting that lifts a refusal, and only where one does", () => {
    expect(callbackAddressRefusal("10.0.0.1", exposed)).toContain("SANDBOX_ALLOW_PRIVATE_CALLBACKS=1");
    expect(callbackAddressRefusal("169.254.169.254", onLoopback)).toContain("never");
  });
});
