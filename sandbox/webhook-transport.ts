// How the webhook dispatcher sends one attempt. The default, `pinnedTransport`, is node:http(s) with a
// `lookup` that answers only the addresses sandbox/callback-guard.ts has just checked: the
// connection cannot go to an address the check did not see, however DNS answers meanwhile, and TLS
// still verifies the certificate against the URL's host name. `fetchTransport` runs a stub fetch
// (SandboxOptions.fetch, for tests), which never connects anywhere itself.
import type { LookupAddress } from "node:dns";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { finished } from "node:stream/promises";

export interface WebhookPost {
  url: URL;
  /** The checked addresses of the URL's host: the only ones connected to. */
  addresses: readonly LookupAddress[];
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** Sends one attempt and resolves with the HTTP status once the answer has been read to its end. */
export type WebhookTransport = (post: WebhookPost) => Promise<number>;

function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
    const usable = addresses.filter((candidate) => family === 0 || candidate.family === family);
    const [first] = usable;
    if (!first) {
      callback(Object.assign(new Error(`no checked IPv${family} address`), { code: "ENOTFOUND" }), "");
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

export interface PinnedTransport {
  send: WebhookTransport;
  /** Closes the idle keep-alive connections. */
  close: () => void;
}

export function pinnedTransport(): PinnedTransport {
  // Keep-alive, as fetch did: a pooled socket stays connected to an address checked when it opened.
  const httpAgent = new HttpAgent({ keepAlive: true });
  const httpsAgent = new HttpsAgent({ keepAlive: true });
  const send: WebhookTransport = async ({ url, addresses, headers, body, signal }) => {
    const secure = url.protocol === "https:";
    const payload = Buffer.from(body, "utf8");
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: "POST",
          headers: { ...headers, "Content-Length": String(payload.length) },
          agent: secure ? httpsAgent : httpAgent,
          lookup: pinnedLookup(addresses),
          signal,
        },
        resolve,
      );
      outgoing.on("error", reject);
      outgoing.end(payload);
    });
    // The answer's body is not kept (a receiver could send a huge one); reading it to the end frees the socket.
    response.resume();
    await finished(response);
    return response.statusCode ?? 0;
  };
  return {
    send,
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

export function fetchTransport(fetchImpl: typeof fetch): WebhookTransport {
  return async ({ url, headers, body, signal }) => {
    const response = await fetchImpl(url.href, { method: "POST", headers, body, redirect: "manual", signal });
    await response.arrayBuffer();
    return response.status;
  };
}
