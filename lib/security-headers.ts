// Pure, so the policy proxy.ts sends is tested without a server.

export interface PolicyOptions {
  nonce: string;
  publicBaseUrl: string;
  /** Its pictures are shown, and "Connect" posts to its sign-in page. */
  platformUrls: readonly string[];
  development: boolean;
}

const origin = (url: string) => new URL(url).origin;

export function contentSecurityPolicy(options: PolicyOptions): string {
  const platform = [...new Set(options.platformUrls.map(origin))];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // React's development build needs 'unsafe-eval'; production never does.
    "script-src": ["'self'", `'nonce-${options.nonce}'`, "'strict-dynamic'", ...(options.development ? ["'unsafe-eval'"] : [])],
    // Inline style attributes (charts, toasts) are not script: allowed.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...platform],
    "font-src": ["'self'"],
    // The service worker that shows push notifications (public/sw.js); 'strict-dynamic' above
    // would otherwise decide for workers too.
    "worker-src": ["'self'"],
    "connect-src": ["'self'", ...(options.development ? ["ws:"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", ...platform],
    "frame-ancestors": ["'none'"],
  };
  if (new URL(options.publicBaseUrl).protocol === "https:") directives["upgrade-insecure-requests"] = [];
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join("; ");
}

/** None over http: it would be ignored, and breaks local use. */
export function strictTransportSecurity(publicBaseUrl: string): string | null {
  return new URL(publicBaseUrl).protocol === "https:" ? "max-age=31536000; includeSubDomains" : null;
}
