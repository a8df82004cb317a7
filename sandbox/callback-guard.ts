// Where the sandbox may send webhooks: endpoint 10 checks a callback URL when it is set, and the
// dispatcher checks it again right before every attempt, after resolving its host name (a name
// can point elsewhere by then). A name is refused when ANY of its addresses is: the connection
// could go to any of them. The dispatcher then connects only to the addresses checked here
// (sandbox/webhook-transport.ts), so a DNS answer that changes in between (rebinding) is never used.
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { callbackAddressRefusal, type CallbackPolicy } from "./network-policy";

/** Every address a host name resolves to (node:dns lookup with all: true; tests may stub it). */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

/** The callback URL's host is, or resolves to, an address the policy forbids. */
export class CallbackRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CallbackRefusedError";
  }
}

/**
 * Setting a URL waits at most this long for DNS: a name that cannot be resolved now is accepted
 * (the spec does not require reachability), since every delivery resolves and checks it again.
 */
const SET_TIME_LOOKUP_TIMEOUT_MS = 2000;

export class CallbackGuard {
  constructor(
    private readonly policy: CallbackPolicy,
    private readonly lookup: HostLookup = systemLookup,
  ) {}

  /**
   * The addresses `url` reaches, every one allowed. Throws CallbackRefusedError naming the first
   * refused address; DNS failures propagate as they are (a network error, retried like one).
   */
  async resolve(url: URL): Promise<readonly LookupAddress[]> {
    // The URL parser keeps IPv6 literals in brackets and already turned 0x7f.1 or 2130706433 into 127.0.0.1.
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const version = isIP(host);
    const addresses = version === 0 ? await this.lookup(host) : [{ address: host, family: version }];
    if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
    for (const { address } of addresses) {
      const refusal = callbackAddressRefusal(address, this.policy);
      if (refusal !== null) throw new CallbackRefusedError(version === 0 ? `${host} resolves to ${address}, ${refusal}` : `${address} is ${refusal}`);
    }
    return addresses;
  }

  /** Set time (endpoint 10): why `url` is refused, or null when it may be saved. */
  async refusal(url: string): Promise<string | null> {
    if (!URL.canParse(url)) return null; // the URL schema reports it
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), SET_TIME_LOOKUP_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.resolve(new URL(url)), gaveUp]);
      return null;
    } catch (error) {
      if (error instanceof CallbackRefusedError) return error.message;
      return null; // not resolvable now: checked again at delivery
    } finally {
      clearTimeout(timer);
    }
  }
}
