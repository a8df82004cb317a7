import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { env } from "@/lib/env";
import { contentSecurityPolicy, strictTransportSecurity } from "@/lib/security-headers";

/** A request id a client or a proxy in front may give; anything else is replaced (lib/log.server.ts reads it). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Every request gets an `x-request-id` (the one a load balancer set, or a new one), which its log
// lines carry (lib/log.server.ts, requestLog) and its response echoes, so a seller's or the platform's
// report can be matched to the logs. Every page also gets a Content-Security-Policy with a fresh
// nonce (lib/security-headers.ts): Next.js reads the nonce from the request's policy header and
// puts it on the scripts it renders. API routes get the request id only: they render no HTML.
export function proxy(request: NextRequest) {
  const given = request.headers.get("x-request-id");
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  // The shop a page is about, for the request's time zone (i18n/request.ts); never taken from the client.
  const shopId = /^\/s\/([^/]+)/.exec(request.nextUrl.pathname)?.[1];
  if (shopId) headers.set("x-shop-id", decodeURIComponent(shopId));
  else headers.delete("x-shop-id");
  if (request.nextUrl.pathname.startsWith("/api/")) {
    const response = NextResponse.next({ request: { headers } });
    response.headers.set("x-request-id", requestId);
    return response;
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy({
    nonce,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    platformUrls: [env.MARKETPLACE_AUTH_URL, env.MARKETPLACE_BASE_URL],
    development: env.NODE_ENV !== "production",
  });
  headers.set("content-security-policy", policy);
  headers.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("x-request-id", requestId);
  const hsts = strictTransportSecurity(env.PUBLIC_BASE_URL);
  if (hsts) response.headers.set("strict-transport-security", hsts);
  return response;
}

export const config = {
  // The webhook receiver is left out: it is the hot path of decision 0002, and its log lines get a
  // request id of their own (lib/log.server.ts, requestLog) from the platform's header or a new one. So
  // is the benchmarks' floor route, which must cost what the receiver's framework path costs.
  matcher: [{ source: "/((?!api/webhooks/|api/bench/|_next/static|_next/image|favicon.ico).*)" }],
};
