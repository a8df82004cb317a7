// Cross-site request refusal for the console's forms and the resend route. The JSON control API is
// safe by its content type (a page on another site cannot send application/json without a CORS
// preflight, which the sandbox never grants), but an HTML form can post to these from any site the
// developer happens to visit, and on a loopback sandbox there is no token to stop it.
import type { Context, MiddlewareHandler } from "hono";

/**
 * True when a browser says the request comes from another site: `Sec-Fetch-Site` other than
 * same-origin (or none: typed by the user), or an `Origin` whose host is not this one (`null`
 * included). Clients that send neither (curl, scripts) are not browsers and pass.
 */
export function isCrossSite(c: Context): boolean {
  const site = c.req.header("Sec-Fetch-Site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = c.req.header("Origin");
  if (origin === undefined) return false;
  // Host, not origin: behind a TLS proxy the request URL says http while the browser says https.
  const host = c.req.header("Host") ?? new URL(c.req.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export function sameOriginOnly(refuse: (c: Context) => Response): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && isCrossSite(c)) return refuse(c);
    await next();
  };
}
