// Which addresses may be called on someone else's word: the sandbox's webhook deliveries (and
// whether its own listen address is "exposed"), the dashboard's label downloads. Pure: no DNS and
// no network interfaces here; the callers resolve names and ask this module about every address.
//
// The ranges follow the IANA IPv4 and IPv6 Special-Purpose Address Registries: a block whose
// "Globally Reachable" is False (or N/A) is not public, and the few blocks inside those that the
// registries mark globally reachable (anycast services) are. Multicast, and IPv6 outside global
// unicast (2000::/3), are in neither registry but cannot be a webhook receiver either.
import { isIP } from "node:net";

export type AddressKind =
  // Never called, whatever the settings: nothing legitimate receives webhooks there.
  | "unspecified"
  | "link-local" // cloud metadata services included
  | "documentation"
  | "benchmarking"
  | "multicast"
  | "reserved" // reserved, deprecated or protocol-specific blocks
  // Called only while the sandbox is not exposed, or with SANDBOX_ALLOW_PRIVATE_CALLBACKS=1.
  | "loopback"
  | "private"
  // Anything else.
  | "public";

const NEVER_CALLED: ReadonlySet<AddressKind> = new Set([
  "unspecified",
  "link-local",
  "documentation",
  "benchmarking",
  "multicast",
  "reserved",
]);

/** An address as a number: IPv4 in 32 bits, IPv6 in 128. */
interface IpValue {
  version: 4 | 6;
  value: bigint;
}

interface AddressRange extends IpValue {
  prefix: number;
  kind: AddressKind;
  /** For the operator's log: `10.0.0.0/8, private-use`. */
  label: string;
}

function parseIpv4(text: string): bigint {
  return text.split(".").reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6(text: string): bigint {
  let address = text.replace(/%.*$/, "");
  // A trailing dotted quad (::ffff:1.2.3.4) is the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    const v4 = parseIpv4(dotted[1]);
    address = `${address.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** An IP address literal (IPv6 without brackets; a zone such as %eth0 is allowed) as a number, or null. */
function parseIp(text: string): IpValue | null {
  const version = isIP(text);
  if (version === 4) return { version: 4, value: parseIpv4(text) };
  if (version === 6) return { version: 6, value: parseIpv6(text) };
  return null;
}

function range(cidr: string, kind: AddressKind, name: string): AddressRange {
  const [network = "", prefix = ""] = cidr.split("/");
  const ip = parseIp(network);
  if (!ip) throw new Error(`not a CIDR block: ${cidr}`);
  return { ...ip, prefix: Number(prefix), kind, label: `${cidr}, ${name}` };
}

function contains(block: AddressRange, ip: IpValue): boolean {
  if (block.version !== ip.version) return false;
  const shift = BigInt((ip.version === 4 ? 32 : 128) - block.prefix);
  return ip.value >> shift === block.value >> shift;
}

/** Checked in this order: the first block that holds the address names its kind, so exceptions come before their block. */
const RANGES: readonly AddressRange[] = [
  // IPv4 Special-Purpose Address Registry
  range("0.0.0.0/8", "unspecified", "this network"), // 0.0.0.0 reaches the local host on Linux
  range("10.0.0.0/8", "private", "private-use"),
  range("100.100.100.200/32", "link-local", "Alibaba Cloud metadata"), // inside 100.64/10, refused in every mode
  range("100.64.0.0/10", "private", "carrier-grade NAT shared address space"),
  range("127.0.0.0/8", "loopback", "loopback"),
  range("169.254.0.0/16", "link-local", "link local and cloud metadata"),
  range("172.16.0.0/12", "private", "private-use"),
  range("192.0.0.9/32", "public", "Port Control Protocol anycast"),
  range("192.0.0.10/32", "public", "TURN anycast"),
  range("192.0.0.0/24", "reserved", "IETF protocol assignments"),
  range("192.0.2.0/24", "documentation", "TEST-NET-1"),
  range("192.88.99.0/24", "reserved", "deprecated 6to4 relay anycast"),
  range("192.168.0.0/16", "private", "private-use"),
  range("198.18.0.0/15", "benchmarking", "benchmarking"),
  range("198.51.100.0/24", "documentation", "TEST-NET-2"),
  range("203.0.113.0/24", "documentation", "TEST-NET-3"),
  range("224.0.0.0/4", "multicast", "multicast"),
  range("255.255.255.255/32", "reserved", "limited broadcast"),
  range("240.0.0.0/4", "reserved", "reserved"),
  // IPv6 Special-Purpose Address Registry (::ffff:0:0/96 is unwrapped first, below)
  range("::/128", "unspecified", "unspecified"),
  range("::1/128", "loopback", "loopback"),
  range("::/96", "reserved", "deprecated IPv4-compatible"),
  // A NAT64 gateway turns these into the IPv4 address they carry, which may be this host's
  // network: the sandbox never calls through one, whatever the address inside.
  range("64:ff9b::/96", "reserved", "IPv4/IPv6 translation"),
  range("64:ff9b:1::/48", "private", "local-use IPv4/IPv6 translation"),
  range("100::/64", "reserved", "discard-only"),
  range("2001:1::1/128", "public", "Port Control Protocol anycast"),
  range("2001:1::2/128", "public", "TURN anycast"),
  range("2001:1::3/128", "public", "DNS-SD Service Registration Protocol anycast"),
  range("2001:3::/32", "public", "AMT"),
  range("2001:4:112::/48", "public", "AS112-v6"),
  range("2001:20::/28", "public", "ORCHIDv2"),
  range("2001:30::/28", "public", "drone remote ID entity tags"),
  range("2001:2::/48", "benchmarking", "benchmarking"),
  range("2001::/23", "reserved", "IETF protocol assignments and Teredo"),
  range("2001:db8::/32", "documentation", "documentation"),
  range("2002::/16", "reserved", "6to4"),
  range("3fff::/20", "documentation", "documentation"),
  range("5f00::/16", "reserved", "segment routing (SRv6) SIDs"),
  range("fd00:ec2::254/128", "link-local", "AWS metadata"), // inside fc00::/7, refused in every mode
  range("fc00::/7", "private", "unique local"),
  range("fe80::/10", "link-local", "link-local unicast"),
  range("ff00::/8", "multicast", "multicast"),
  // IPv6 outside global unicast (2000::/3) is reserved by the IETF: nothing there is a receiver.
  range("::/3", "reserved", "outside global unicast"),
  range("4000::/2", "reserved", "outside global unicast"),
  range("8000::/1", "reserved", "outside global unicast"),
];

const IPV4_MAPPED = range("::ffff:0:0/96", "reserved", "IPv4-mapped");

/** The address a connection really goes to: an IPv4-mapped IPv6 address is its IPv4 address. */
function effectiveAddress(ip: IpValue): IpValue {
  if (contains(IPV4_MAPPED, ip)) return { version: 4, value: ip.value & 0xffffffffn };
  return ip;
}

function rangeOf(ip: IpValue): AddressRange | null {
  return RANGES.find((block) => contains(block, ip)) ?? null;
}

/** The kind of an IP address literal (IPv6 without brackets; a zone such as %eth0 is allowed), or null if it is not one. */
export function classifyAddress(address: string): AddressKind | null {
  const ip = parseIp(address);
  return ip === null ? null : (rangeOf(effectiveAddress(ip))?.kind ?? "public");
}

/** `localhost` or a loopback address: the sandbox listening there is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/\.$/, "");
  if (name === "localhost") return true;
  const ip = parseIp(name.replace(/^\[(.*)\]$/, "$1"));
  return ip !== null && rangeOf(effectiveAddress(ip))?.kind === "loopback";
}

export interface CallbackPolicy {
  /** Loopback, private and this host's own addresses are allowed: the sandbox is not exposed, or SANDBOX_ALLOW_PRIVATE_CALLBACKS=1. */
  allowLoopbackAndPrivate: boolean;
}

const sameAddress = (a: IpValue, b: IpValue) => a.version === b.version && a.value === b.value;

/**
 * Why the sandbox refuses to call `address`, or null when it may. The reason names the address's
 * range, so it is for the operator's log only: an API answer must not tell a caller what an
 * internal name resolves to. `hostAddresses` are this machine's own (any interface): calling one
 * of them reaches whatever else runs here, so they count as loopback. Anything not an IP literal
 * is refused.
 */
export function callbackAddressRefusal(address: string, policy: CallbackPolicy, hostAddresses: readonly string[] = []): string | null {
  const parsed = parseIp(address);
  if (parsed === null) return "not an IP address";
  const ip = effectiveAddress(parsed);
  const block = rangeOf(ip);
  const kind = block?.kind ?? "public";
  if (NEVER_CALLED.has(kind)) return `${kind} (${block?.label ?? kind}), which the sandbox never calls`;
  if (policy.allowLoopbackAndPrivate) return null;
  const unlessAllowed = "refused while the sandbox listens on a network address (SANDBOX_HOST) unless SANDBOX_ALLOW_PRIVATE_CALLBACKS=1";
  if (kind === "loopback" || kind === "private") return `${kind} (${block?.label ?? kind}), ${unlessAllowed}`;
  const own = hostAddresses.map(parseIp).some((host) => host !== null && sameAddress(effectiveAddress(host), ip));
  if (own) return `an address of this host, ${unlessAllowed}`;
  return null;
}
