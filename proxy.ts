import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { env } from "@/lib/env";
import { contentSecurityPolicy, strictTransportSecurity } from "@/lib/security-headers";

// Every page gets a Content-Security-Policy with a fresh nonce (lib/security-headers.ts). Next.js
// reads the nonce from the request's policy header and puts it on the scripts it renders. API
// routes (the webhook receiver's hot path among them) and static files are left out: they render
// no HTML.
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy({
    nonce,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    platformUrls: [env.MARKETPLACE_AUTH_URL, env.MARKETPLACE_BASE_URL],
    development: env.NODE_ENV !== "production",
  });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  headers.set("x-nonce", nonce);
  // The shop a page is about, for the request's time zone (i18n/request.ts); never taken from the client.
  const shopId = /^\/s\/([^/]+)/.exec(request.nextUrl.pathname)?.[1];
  if (shopId) headers.set("x-shop-id", decodeURIComponent(shopId));
  else headers.delete("x-shop-id");
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  const hsts = strictTransportSecurity(env.PUBLIC_BASE_URL);
  if (hsts) response.headers.set("strict-transport-security", hsts);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!api/|_next/static|_next/image|favicon.ico).*)" }],
};
