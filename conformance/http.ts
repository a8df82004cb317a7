// The kit's only HTTP client. It records what was asked and answered, so a failing check can
// quote the exchange; it never throws on an HTTP status (statuses are what the checks judge).
import { parseRetryAfter } from "@marketplace/api/errors";
import { oneLine } from "./report";

export type HttpMethod = "GET" | "POST" | "DELETE";

export interface RequestSpec {
  method?: HttpMethod;
  /** A path on the host (joined to it, a path prefix of the host kept) or an absolute URL. */
  path: string;
  query?: Iterable<readonly [string, string]>;
  /** Bearer token; null sends no Authorization header. */
  token: string | null;
  json?: unknown;
  form?: Iterable<readonly [string, string]>;
  /** Which host `path` is on: the API (`{base_url}`, default) or the authorization host. */
  host?: "api" | "auth";
}

export interface Exchange {
  method: HttpMethod;
  url: URL;
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON, undefined when it is not JSON. */
  json: unknown;
}

/** Raised when the platform could not be reached at all; checks report it as a failure. */
export class UnreachableError extends Error {}

export interface HttpClientOptions {
  baseUrl: string;
  authUrl?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Longest Retry-After the kit honours on a 429 before giving up (ms). */
  maxRetryWaitMs?: number;
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `GET /v1.0/marketplace/orders?_limit=1`, for reasons. */
export function requestLine(exchange: Exchange): string {
  return `${exchange.method} ${exchange.url.pathname}${decodeURIComponent(exchange.url.search)}`;
}

/** `GET /v1.0/marketplace/orders?_limit=1 answered 500 {"error":…}`, for reasons. */
export function describeExchange(exchange: Exchange): string {
  const excerpt = exchange.text === "" ? "(empty body)" : oneLine(exchange.text, 160);
  return `${requestLine(exchange)} answered ${exchange.status} ${excerpt}`;
}

export function createHttpClient(options: HttpClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;

  function resolve(spec: RequestSpec): URL {
    if (/^https?:\/\//i.test(spec.path)) return new URL(spec.path);
    const host = spec.host === "auth" ? options.authUrl : options.baseUrl;
    if (!host) throw new Error("no --auth-url given");
    const url = new URL(`${host}${spec.path}`);
    if (spec.query) for (const [key, value] of spec.query) url.searchParams.append(key, value);
    return url;
  }

  async function request(spec: RequestSpec): Promise<Exchange> {
    const method = spec.method ?? "GET";
    const url = resolve(spec);
    const headers = new Headers({ accept: "application/json" });
    if (spec.token !== null) headers.set("authorization", `Bearer ${spec.token}`);
    let body: string | undefined;
    if (spec.json !== undefined) {
      headers.set("content-type", "application/json;charset=UTF-8");
      body = JSON.stringify(spec.json);
    } else if (spec.form !== undefined) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams([...spec.form].map(([key, value]) => [key, value])).toString();
    }

    // A 429 (spec: "requests from a user who sends too many can be blocked temporarily") says
    // nothing about conformance: wait as told, twice at most, then let the check judge the 429.
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs) });
      } catch (cause) {
        const why =
          cause instanceof Error && cause.name === "TimeoutError"
            ? `no answer within ${options.timeoutMs / 1000} s`
            : String(cause instanceof Error && cause.cause ? cause.cause : cause);
        throw new UnreachableError(`${method} ${url.pathname} could not be completed: ${why}`, { cause });
      }
      const text = await response.text();
      const wait = response.status === 429 ? (parseRetryAfter(response.headers.get("retry-after")) ?? 1000) : undefined;
      if (wait !== undefined && attempt <= 2 && wait <= maxRetryWaitMs) {
        await new Promise((done) => setTimeout(done, wait));
        continue;
      }
      return { method, url, status: response.status, headers: response.headers, text, json: readJson(text) };
    }
  }

  return { request, resolve };
}

export type HttpClient = ReturnType<typeof createHttpClient>;
