import "server-only";
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { LookupFunction } from "node:net";
// One classification of "public" for everything this project calls on someone else's word.
import { classifyAddress } from "@marketplace/network-policy";
import type { AddressKind } from "@marketplace/network-policy";

// Calls to an address someone else gave (a label's URL from the platform, a browser's push
// endpoint): its host is resolved once, every address is checked, and the socket may only go to
// the checked ones, so a name that resolves differently a moment later (DNS rebinding) cannot
// redirect it.

export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

export type AddressRefusal = { reason: "unreachable" | "private_address"; detail: string };

/** The host's addresses when every one is allowed; else why not. */
export async function checkedAddresses(
  url: URL,
  allowed: (kind: AddressKind) => boolean,
  lookup: HostLookup = systemLookup,
): Promise<readonly LookupAddress[] | AddressRefusal> {
  // The URL parser keeps IPv6 brackets and has already turned 0x7f.1 into 127.0.0.1.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const version = isIP(host);
  let addresses: readonly LookupAddress[];
  try {
    addresses = version === 0 ? await lookup(host) : [{ address: host, family: version }];
  } catch {
    return { reason: "unreachable", detail: `${host} could not be resolved` };
  }
  if (addresses.length === 0) return { reason: "unreachable", detail: `${host} resolves to no address` };
  // The connection could go to any of the addresses.
  for (const { address } of addresses) {
    const kind = classifyAddress(address) ?? "reserved";
    if (!allowed(kind)) return { reason: "private_address", detail: `${host} is ${kind === "public" ? address : `a ${kind} address`}` };
  }
  return addresses;
}

/** Answers only the checked addresses, so the socket cannot go anywhere else. */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
    const usable = addresses.filter((candidate) => family === 0 || candidate.family === family);
    const [first] = usable;
    if (!first) callback(Object.assign(new Error(`no checked IPv${family} address`), { code: "ENOTFOUND" }), "");
    else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}
