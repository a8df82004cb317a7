// Which addresses the sandbox may call back (webhook deliveries) and whether its own listen
// address is "exposed". Pure: no DNS here; sandbox/callback-guard.ts resolves names and asks this
// module about every address a name stands for.
//
// CIDR matching is node:net's BlockList, which also matches an IPv4-mapped IPv6 address
// (::ffff:a.b.c.d, or ::ffff:XXXX:XXXX as the URL parser writes it) against the IPv4 rules, so
// `[::ffff:169.254.169.254]` is the metadata address it stands for.
import { BlockList, isIP } from "node:net";

export type AddressKind = "unspecified" | "link-local" | "loopback" | "private" | "public";

type Family = "ipv4" | "ipv6";

function blockList(subnets: readonly [string, number, Family][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return list;
}

/** Checked in this order: the first list that holds the address names its kind. */
const KINDS: readonly [Exclude<AddressKind, "public">, BlockList][] = [
  // "This network": 0.0.0.0 reaches the local host on Linux, the rest of 0/8 is not routable.
  ["unspecified", blockList([["0.0.0.0", 8, "ipv4"], ["::", 128, "ipv6"]])],
  [
    "link-local",
    blockList([
      ["169.254.0.0", 16, "ipv4"], // cloud metadata (169.254.169.254) lives here
      ["fe80::", 10, "ipv6"],
      // Metadata services outside the link-local ranges (AWS IPv6, Alibaba Cloud): always refused too.
      ["fd00:ec2::254", 128, "ipv6"],
      ["100.100.100.200", 32, "ipv4"],
    ]),
  ],
  ["loopback", blockList([["127.0.0.0", 8, "ipv4"], ["::1", 128, "ipv6"]])],
  [
    "private",
    blockList([
      ["10.0.0.0", 8, "ipv4"],
      ["172.16.0.0", 12, "ipv4"],
      ["192.168.0.0", 16, "ipv4"],
      ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT
      ["fc00::", 7, "ipv6"], // unique local
    ]),
  ],
];

/** The kind of an IP address literal (IPv6 without brackets; a zone such as %eth0 is allowed), or null if it is not one. */
export function classifyAddress(address: string): AddressKind | null {
  const version = isIP(address);
  if (version === 0) return null;
  const family: Family = version === 4 ? "ipv4" : "ipv6";
  for (const [kind, list] of KINDS) if (list.check(address, family)) return kind;
  return "public";
}

/** `localhost` or a loopback address: the sandbox listening there is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/\.$/, "");
  return name === "localhost" || classifyAddress(name.replace(/^\[(.*)\]$/, "$1")) === "loopback";
}

export interface CallbackPolicy {
  /** Loopback and private addresses are allowed: the sandbox is not exposed, or SANDBOX_ALLOW_PRIVATE_CALLBACKS=1. */
  allowLoopbackAndPrivate: boolean;
}

/**
 * Why the sandbox refuses to call `address` ("a private address, refused while ..."), or null when
 * it may. Anything not an IP literal is refused.
 */
export function callbackAddressRefusal(address: string, policy: CallbackPolicy): string | null {
  const kind = classifyAddress(address);
  switch (kind) {
    case null:
      return "not an IP address";
    case "unspecified":
      return "an unspecified address, which the sandbox never calls";
    case "link-local":
      return "a link-local or cloud metadata address, which the sandbox never calls";
    case "loopback":
    case "private":
      return policy.allowLoopbackAndPrivate
        ? null
        : `a ${kind} address, refused while the sandbox listens on a network address (SANDBOX_HOST) unless SANDBOX_ALLOW_PRIVATE_CALLBACKS=1`;
    case "public":
      return null;
  }
}
