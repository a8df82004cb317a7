// Where the sandbox may send webhooks: endpoint 10 checks a callback URL when it is set, and the
// dispatcher checks it again right before every attempt, after resolving its host name (a name
// can point elsewhere by then). A name is refused when ANY of its addresses is: the connection
// could go to any of them. The dispatcher then connects only to the addresses checked here
// (sandbox/webhook-transport.ts), so a DNS answer that changes in between (rebinding) is never used.
//
// A refusal tells the caller only that the URL is not allowed: naming the address or its range would
// let anyone with a token map internal names (what "vm" resolves to). The operator gets the detail
// in the sandbox's log.
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { callbackAddressRefusal, type CallbackPolicy } from "@marketplace/network-policy";

/** Every address a host name resolves to (node:dns lookup with all: true; tests may stub it). */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

/** This machine's own addresses, on every interface. */
export type HostAddresses = () => readonly string[];

/** Read at every check rather than once: addresses come and go (DHCP, VPNs, containers). */
export const systemHostAddresses: HostAddresses = () =>
  Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));

/** All a caller is told of a refused callback URL, at set time and in the delivery log. */
export const CALLBACK_URL_NOT_ALLOWED = "not allowed (the sandbox's log says why)";

/** The callback URL's host is, or resolves to, an address the policy forbids. `detail` is for the log only. */
export class CallbackRefusedError extends Error {
  constructor(readonly detail: string) {
    super(CALLBACK_URL_NOT_ALLOWED);
    this.name = "CallbackRefusedError";
  }
}

export interface CallbackGuardOptions {
  /** Default: every interface's address (os.networkInterfaces()). */
  hostAddresses?: HostAddresses;
  /** Where refusals are explained (default console.warn). */
  log?: (line: string) => void;
}

/**
 * Setting a URL waits at most this long for DNS: a name that cannot be resolved now is accepted
 * (the spec does not require reachability), since every delivery resolves and checks it again.
 */
const SET_TIME_LOOKUP_TIMEOUT_MS = 2000;

export class CallbackGuard {
  private readonly hostAddresses: HostAddresses;
  private readonly log: (line: string) => void;

  constructor(
    private readonly policy: CallbackPolicy,
    private readonly lookup: HostLookup = systemLookup,
    options: CallbackGuardOptions = {},
  ) {
    this.hostAddresses = options.hostAddresses ?? systemHostAddresses;
    this.log = options.log ?? ((line) => console.warn(line));
  }

  /**
   * The addresses `url` reaches, every one allowed. Throws CallbackRefusedError (and logs which
   * address was refused and why); DNS failures propagate as they are (a network error, retried like one).
   */
  async resolve(url: URL): Promise<readonly LookupAddress[]> {
    // The URL parser keeps IPv6 literals in brackets and already turned 0x7f.1 or 2130706433 into 127.0.0.1.
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const version = isIP(host);
    const addresses = version === 0 ? await this.lookup(host) : [{ address: host, family: version }];
    if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
    // This host's addresses matter only where loopback is refused too.
    const own = this.policy.allowLoopbackAndPrivate ? [] : this.hostAddresses();
    for (const { address } of addresses) {
      const refusal = callbackAddressRefusal(address, this.policy, own);
      if (refusal !== null) {
        const detail = version === 0 ? `${host} resolves to ${address}: ${refusal}` : `${address}: ${refusal}`;
        this.log(`sandbox: callback URL refused: ${detail}`);
        throw new CallbackRefusedError(detail);
      }
    }
    return addresses;
  }

  /** Set time (endpoint 10): CALLBACK_URL_NOT_ALLOWED when `url` is refused, or null when it may be saved. */
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
