// Signing a seller in to the dashboard from a script, through the real OAuth flow: the
// dashboard's Auth.js routes and the sandbox's consent form. For benchmarks.

/** A minimal cookie jar: enough for Auth.js's state and session cookies on one host. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const index = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** Signs in as a seller through the dashboard's Auth.js routes and the sandbox's consent form. */
export async function signIn(app: string, sandbox: string, login: string): Promise<string> {
  const jar = new CookieJar();
  const csrf = await fetch(`${app}/api/auth/csrf`);
  jar.take(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };

  const start = await fetch(`${app}/api/auth/signin/marketplace`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/" }),
  });
  jar.take(start);
  const authorize = new URL(start.headers.get("location") ?? "");
  const scopes = (authorize.searchParams.get("scope") ?? "").split(" ");

  const form = new URLSearchParams({ login, password: "demo1234", decision: "approve" });
  for (const scope of scopes) form.append("scope", scope);
  const consent = await fetch(`${sandbox}${authorize.pathname}${authorize.search}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const callback = consent.headers.get("location");
  if (!callback) throw new Error(`The consent form answered ${consent.status}`);

  const done = await fetch(callback, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.take(done);
  if (!jar.header().includes("session-token")) throw new Error("Signing in did not set a session cookie");
  return jar.header();
}

/** The shop a signed-in person lands on (the dashboard's start redirects to /s/{shopId}): its API paths start with /api/s/{shopId}. */
export async function shopOf(app: string, cookie: string): Promise<string> {
  const response = await fetch(`${app}/`, { redirect: "manual", headers: { cookie } });
  const shopId = /^\/s\/([^/?]+)/.exec(new URL(response.headers.get("location") ?? "/", app).pathname)?.[1];
  if (!shopId) throw new Error(`The dashboard's start page did not lead to a shop (HTTP ${response.status})`);
  return shopId;
}
