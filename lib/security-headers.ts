// The browser policy of every page (proxy.ts): a Content-Security-Policy with a fresh nonce per
// request (Next.js puts it on its own scripts), and HSTS when the dashboard is served over https.
// Pure, so the policy is tested without a server.

export interface PolicyOptions {
  nonce: string;
  /** The dashboard's public origin (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /** The platform's origins: its pictures are shown, and its sign-in page is where "Connect" goes. */
  platformUrls: readonly string[];
  development: boolean;
}

const origin = (url: string) => new URL(url).origin;

export function contentSecurityPolicy(options: PolicyOptions): string {
  const platform = [...new Set(options.platformUrls.map(origin))];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // 'strict-dynamic': scripts the nonced ones load are trusted; no inline script without the nonce.
    // React's development build evaluates code ('unsafe-eval'); production never does.
    "script-src": ["'self'", `'nonce-${options.nonce}'`, "'strict-dynamic'", ...(options.development ? ["'unsafe-eval'"] : [])],
    // Inline style attributes (charts, toasts) are not script: allowed.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...platform],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(options.development ? ["ws:"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    // The connect form leads to the platform's sign-in page (a redirect after the form's POST).
    "form-action": ["'self'", ...platform],
    "frame-ancestors": ["'none'"],
  };
  if (new URL(options.publicBaseUrl).protocol === "https:") directives["upgrade-insecure-requests"] = [];
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join("; ");
}

/** HSTS for a dashboard served over https; none over http (it would be ignored, and breaks local use). */
export function strictTransportSecurity(publicBaseUrl: string): string | null {
  return new URL(publicBaseUrl).protocol === "https:" ? "max-age=31536000; includeSubDomains" : null;
}
