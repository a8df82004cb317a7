import "server-only";
import type { LookupAddress } from "node:dns";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import type { IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LabelFailureReason } from "@/features/shipping/labels-wire";
import type { AddressKind } from "@marketplace/network-policy";
import { checkedAddresses, pinnedLookup, systemLookup } from "@/lib/network/outbound.server";
import type { HostLookup } from "@/lib/network/outbound.server";

// A label's address comes from the platform's data, so it is untrusted: decision 0013 sets the rules.

export interface LabelLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const LABEL_LIMITS: Readonly<LabelLimits> = { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 3 };

export type LabelFetchResult =
  { ok: true; bytes: Uint8Array } | { ok: false; reason: LabelFailureReason; status?: number; detail?: string };

export type { HostLookup };

export interface LabelFetcherOptions {
  /** Its origin alone may be plain http or a local address, and alone gets the token. */
  platformBaseUrl: string;
  accessToken: string | null;
  limits?: Partial<LabelLimits>;
  lookup?: HostLookup;
}

export interface LabelFetchOptions {
  signal?: AbortSignal;
  /**
   * Asked before each piece of the body is kept (a run's total, features/shipping/label-merge.ts): false
   * stops the download there, and the label is `too_large` unless the caller aborted `signal`.
   */
  claimBytes?: (bytes: number) => boolean;
}

export interface LabelFetcher {
  /** Throws only when the caller's `signal` aborted. */
  fetch(url: string, options?: LabelFetchOptions): Promise<LabelFetchResult>;
  close(): void;
}

export function labelUrlRefusal(url: URL, platformOrigin: string): Extract<LabelFailureReason, "invalid_url" | "insecure"> | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return "invalid_url";
  // Credentials in the address would be sent as Basic authentication to whoever the host is.
  if (url.username !== "" || url.password !== "") return "invalid_url";
  if (url.protocol === "http:" && url.origin !== platformOrigin) return "insecure";
  return null;
}

/** The token only for the platform's own origin: scheme, host and port alike. */
export function labelRequestHeaders(url: URL, platformOrigin: string, accessToken: string | null): Record<string, string> {
  return {
    accept: "application/pdf",
    ...(accessToken !== null && url.origin === platformOrigin ? { authorization: `Bearer ${accessToken}` } : {}),
  };
}

/** Local addresses for the platform alone (the sandbox on this machine). */
function addressAllowed(kind: AddressKind, platform: boolean): boolean {
  return kind === "public" || (platform && (kind === "loopback" || kind === "private"));
}

const ignore = () => {};

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Within the first kilobyte, where PDF readers look for the header. */
function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  return head.indexOf("%PDF-") !== -1;
}

class Refused extends Error {
  constructor(
    readonly reason: LabelFailureReason,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(detail);
  }
}

function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

export function createLabelFetcher(options: LabelFetcherOptions): LabelFetcher {
  const platformOrigin = new URL(options.platformBaseUrl).origin;
  const limits: LabelLimits = { ...LABEL_LIMITS, ...options.limits };
  const lookup = options.lookup ?? systemLookup;
  // Most labels come from one or two hosts; a pooled socket stays on an address checked when it opened.
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  async function addressesFor(url: URL, platform: boolean, signal: AbortSignal): Promise<readonly LookupAddress[]> {
    const checked = await unlessAborted(
      checkedAddresses(url, (kind) => addressAllowed(kind, platform), lookup),
      signal,
    );
    if ("reason" in checked) throw new Refused(checked.reason, checked.detail);
    return checked;
  }

  function get(url: URL, addresses: readonly LookupAddress[], signal: AbortSignal): Promise<IncomingMessage> {
    const secure = url.protocol === "https:";
    return new Promise((resolve, reject) => {
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method: "GET",
        headers: labelRequestHeaders(url, platformOrigin, options.accessToken),
        agent: secure ? agents.https : agents.http,
        lookup: pinnedLookup(addresses),
        signal,
      });
      request.once("response", (response) => {
        // A body cut off that nobody reads any more must not crash the process.
        response.on("error", ignore);
        resolve(response);
      });
      // `on`, not `once`: an error after the answer came is the body's, already handled.
      request.on("error", reject);
      request.end();
    });
  }

  async function readCapped(response: IncomingMessage, claimBytes: LabelFetchOptions["claimBytes"]): Promise<Uint8Array> {
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      response.destroy();
      throw new Refused("too_large", `${declared} bytes declared`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      // A server may send far more than it declared, or declare nothing.
      if (size > limits.maxBytes) {
        response.destroy();
        throw new Refused("too_large", `more than ${limits.maxBytes} bytes`);
      }
      if (claimBytes && !claimBytes(chunk.length)) {
        response.destroy();
        throw new Refused("too_large", "past what the caller would take");
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  }

  async function fetchLabel(raw: string, options: LabelFetchOptions = {}): Promise<LabelFetchResult> {
    const outer = options.signal;
    if (raw.trim() === "") return { ok: false, reason: "no_url" };
    if (!URL.canParse(raw)) return { ok: false, reason: "invalid_url" };
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    let url = new URL(raw);
    try {
      for (let redirects = 0; ; redirects++) {
        const refusal = labelUrlRefusal(url, platformOrigin);
        if (refusal) throw new Refused(redirects > 0 ? "redirect" : refusal, `${refusal}: ${url.origin}`);
        const platform = url.origin === platformOrigin;
        let addresses: readonly LookupAddress[];
        try {
          addresses = await addressesFor(url, platform, signal);
        } catch (error) {
          // A redirect to a private address is the redirect's fault.
          if (error instanceof Refused && redirects > 0 && error.reason === "private_address") throw new Refused("redirect", error.detail);
          throw error;
        }
        const response = await get(url, addresses, signal);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location) {
          response.resume();
          if (redirects >= limits.maxRedirects) throw new Refused("redirect", `more than ${limits.maxRedirects} redirects`);
          if (!URL.canParse(location, url)) throw new Refused("redirect", "a redirect to something that is not an address");
          url = new URL(location, url);
          continue;
        }
        if (status !== 200) {
          response.resume();
          throw new Refused("http_error", `HTTP ${status}`, status);
        }
        const bytes = await readCapped(response, options.claimBytes);
        if (!isPdf(bytes)) throw new Refused("not_pdf", `${response.headers["content-type"] ?? "no content type"}, ${bytes.length} bytes`);
        return { ok: true, bytes };
      }
    } catch (error) {
      if (outer?.aborted) throw outer.reason;
      if (error instanceof Refused)
        return { ok: false, reason: error.reason, detail: error.detail, ...(error.status === undefined ? {} : { status: error.status }) };
      if (timeout.aborted) return { ok: false, reason: "timeout", detail: `no complete answer within ${limits.timeoutMs} ms` };
      return { ok: false, reason: "unreachable", detail: error instanceof Error ? error.message : String(error) };
    }
  }

  return {
    fetch: fetchLabel,
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
