import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { HostLookup } from "./callback-guard";
import type { SandboxConfig } from "./config";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  token = await obtainAccessToken(sandbox.url);
});

describe.each(["/v1.0/marketplace/webhooks/url", "/v1.0/webhooks"])("webhook callback URL at %s", (path) => {
  it("POST sets, GET reads, DELETE removes", async () => {
    expect(await (await sandbox.api(path, { token })).json()).toEqual({ url: null });
    const set = await sandbox.api(path, { method: "POST", token, json: { url: "https://hooks.example.com/in" } });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ message: "Callback URL saved", url: "https://hooks.example.com/in" });
    const read = await sandbox.api(path, { token });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ url: "https://hooks.example.com/in" });
    const overwrite = await sandbox.api(path, { method: "POST", token, json: { url: "https://hooks.example.com/v2" } });
    expect(overwrite.status).toBe(200);
    const removed = await sandbox.api(path, { method: "DELETE", token });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ message: "Callback URL removed" });
    expect(await (await sandbox.api(path, { token })).json()).toEqual({ url: null });
  });

  it.each([
    ["a malformed URL", { url: "not a url" }],
    ["a non-http URL", { url: "ftp://example.com/x" }],
    ["no url", {}],
  ])("%s → 400", async (_name, body) => {
    const response = await sandbox.api(path, { method: "POST", token, json: body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_request", details: [{ field: "url" }] } });
  });

  it("malformed JSON → 400", async () => {
    const response = await sandbox.api(path, { method: "POST", token, body: "{", headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(400);
  });

  it("missing or invalid token → 401", async () => {
    expect((await sandbox.api(path)).status).toBe(401);
    expect((await sandbox.api(path, { method: "POST", token: "bad", json: { url: "https://a.example" } })).status).toBe(401);
  });

  it("server error → 500", async () => {
    sandbox.handle.faults.apply({ errorRate: 1 });
    const response = await sandbox.api(path, { method: "POST", token, json: { url: "https://a.example" } });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: "server_error" } });
  });
});

describe("webhook URL scoping", () => {
  it("is one URL per integrator application per user, shared by both paths", async () => {
    await sandbox.api("/v1.0/webhooks", { method: "POST", token, json: { url: "https://demo.example/hook" } });
    expect(await (await sandbox.api("/v1.0/marketplace/webhooks/url", { token })).json()).toEqual({ url: "https://demo.example/hook" });
    const otherApp = await obtainAccessToken(sandbox.url, { clientId: "multi-integrator", redirectUri: "http://localhost:3000/cb1" });
    expect(await (await sandbox.api("/v1.0/webhooks", { token: otherApp })).json()).toEqual({ url: null });
    const otherUser = await obtainAccessToken(sandbox.url, { login: "seller2@example.com" });
    expect(await (await sandbox.api("/v1.0/webhooks", { token: otherUser })).json()).toEqual({ url: null });
    // A second token of the same app and user sees the same URL.
    const sameAppAgain = await obtainAccessToken(sandbox.url);
    expect(await (await sandbox.api("/v1.0/webhooks", { token: sameAppAgain })).json()).toEqual({ url: "https://demo.example/hook" });
  });
});

describe("SANDBOX_CALLBACK_SCOPE=application", () => {
  let shared: TestSandbox;

  beforeAll(async () => {
    shared = await startTestSandbox({ config: { callbackScope: "application" } });
  });
  afterAll(() => shared.close());
  beforeEach(() => shared.handle.reset());

  it("is one URL per integrator application: any of its users sets, reads or removes it", async () => {
    const tokenA = await obtainAccessToken(shared.url);
    const tokenB = await obtainAccessToken(shared.url, { login: "seller2@example.com" });
    await shared.api("/v1.0/webhooks", { method: "POST", token: tokenA, json: { url: "https://a.example/hook" } });
    expect(await (await shared.api("/v1.0/marketplace/webhooks/url", { token: tokenB })).json()).toEqual({ url: "https://a.example/hook" });
    // The last one set wins, whoever set it.
    await shared.api("/v1.0/marketplace/webhooks/url", { method: "POST", token: tokenB, json: { url: "https://b.example/hook" } });
    expect(await (await shared.api("/v1.0/webhooks", { token: tokenA })).json()).toEqual({ url: "https://b.example/hook" });
    // Another application keeps its own URL.
    const otherApp = await obtainAccessToken(shared.url, { clientId: "multi-integrator", redirectUri: "http://localhost:3000/cb1" });
    expect(await (await shared.api("/v1.0/webhooks", { token: otherApp })).json()).toEqual({ url: null });
    expect(await (await shared.api("/v1.0/webhooks", { method: "DELETE", token: tokenA })).json()).toEqual({
      message: "Callback URL removed",
    });
    expect(await (await shared.api("/v1.0/webhooks", { token: tokenB })).json()).toEqual({ url: null });
  });
});

/** A DNS of its own: every name the address tests use, and nothing else (ENOTFOUND). */
const NAMES: Record<string, string[]> = {
  localhost: ["127.0.0.1", "::1"],
  "public.test": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "metadata.test": ["93.184.215.14", "169.254.169.254"],
  "mapped-metadata.test": ["::ffff:169.254.169.254"],
  "intranet.test": ["10.1.2.3"],
  "loopback6.test": ["::1"],
  "docs.test": ["93.184.215.14", "192.0.2.10"],
  "bench.test": ["198.18.0.20"],
  "multicast6.test": ["ff05::2"],
  "nat64-loopback.test": ["64:ff9b::7f00:1"],
};
const testLookup: HostLookup = async (hostname) => {
  const addresses = NAMES[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: isIP(address) }));
};

const ALWAYS_REFUSED = [
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]:8080/hooks",
  "http://0.0.0.0:3000/hooks",
  "http://0/hooks",
  "http://[::]/hooks",
  "http://[::ffff:169.254.169.254]/hooks",
  "http://[::ffff:a9fe:a9fe]/hooks",
  "https://metadata.test/hooks",
  "https://mapped-metadata.test/hooks",
  // The IANA special-purpose blocks nothing legitimate receives webhooks on.
  "http://192.0.2.1/hooks",
  "http://198.18.0.1/hooks",
  "http://198.51.100.1/hooks",
  "http://203.0.113.1/hooks",
  "http://224.0.0.1/hooks",
  "http://240.0.0.1/hooks",
  "http://255.255.255.255/hooks",
  "http://192.0.0.8/hooks",
  "http://[::ffff:203.0.113.1]/hooks",
  "http://[2001:db8::1]/hooks",
  "http://[3fff::1]/hooks",
  "http://[2001:2::1]/hooks",
  "http://[2001::1]/hooks",
  "http://[2002:7f00:1::]/hooks",
  "http://[::7f00:1]/hooks",
  "http://[100::1]/hooks",
  "http://[5f00::1]/hooks",
  "http://[ff02::1]/hooks",
  "http://[64:ff9b::a9fe:a9fe]/hooks",
  "http://[64:ff9b::7f00:1]/hooks",
  "http://[64:ff9b::5db8:d70e]/hooks",
  "https://nat64-loopback.test/hooks",
  "https://docs.test/hooks",
  "https://bench.test/hooks",
  "https://multicast6.test/hooks",
];
const LOOPBACK_AND_PRIVATE = [
  "http://127.0.0.1:3000/hooks",
  "http://[::1]:3000/hooks",
  "http://[::ffff:7f00:1]/hooks",
  "http://localhost:3000/hooks",
  "http://2130706433/hooks",
  "http://10.0.0.8/hooks",
  "http://172.16.5.4/hooks",
  "http://192.168.1.1/hooks",
  "http://100.64.1.1/hooks",
  "http://[fd00::1]/hooks",
  "https://intranet.test/hooks",
  "https://loopback6.test/hooks",
  "http://[64:ff9b:1::a00:1]/hooks",
];
const PUBLIC = [
  "https://public.test/hooks",
  "http://93.184.215.14/hooks",
  "https://[2606:4700::1]/hooks",
  "https://not-resolvable.test/hooks",
];

describe.each<[string, Partial<SandboxConfig>, { refused: string[]; accepted: string[] }]>([
  ["on loopback (the default)", {}, { refused: ALWAYS_REFUSED, accepted: [...LOOPBACK_AND_PRIVATE, ...PUBLIC] }],
  [
    "exposed",
    { host: "0.0.0.0", controlToken: "c".repeat(32) },
    { refused: [...ALWAYS_REFUSED, ...LOOPBACK_AND_PRIVATE], accepted: PUBLIC },
  ],
  [
    "exposed with SANDBOX_ALLOW_PRIVATE_CALLBACKS=1",
    { host: "0.0.0.0", controlToken: "c".repeat(32), allowPrivateCallbacks: true },
    { refused: ALWAYS_REFUSED, accepted: [...LOOPBACK_AND_PRIVATE, ...PUBLIC] },
  ],
])("callback URL targets, sandbox %s", (_name, config, { refused, accepted }) => {
  let guarded: TestSandbox;
  let guardedToken: string;

  beforeAll(async () => {
    // Refusals are explained in the operator's log: quiet here, checked below.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    guarded = await startTestSandbox({ config, lookup: testLookup, startDelivery: false });
    guardedToken = await obtainAccessToken(guarded.url);
  });
  afterAll(async () => {
    vi.mocked(console.warn).mockRestore();
    await guarded.close();
  });

  describe.each(["/v1.0/marketplace/webhooks/url", "/v1.0/webhooks"])("POST %s", (path) => {
    it.each(refused)("%s → 400 naming url, saying only that it is not allowed; nothing saved", async (url) => {
      const response = await guarded.api(path, { method: "POST", token: guardedToken, json: { url } });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({
        error: { code: "invalid_request", details: [{ field: "url", message: expect.stringMatching(/^is not allowed/) }] },
      });
      // Nothing of what the name resolves to, nor which block it fell in.
      expect(text).not.toMatch(/resolves|loopback|private|link-local|metadata|documentation|reserved|multicast|benchmarking|\/\d+\b/i);
      for (const address of NAMES[new URL(url).hostname] ?? []) expect(text).not.toContain(address);
      expect(await (await guarded.api(path, { token: guardedToken })).json()).toEqual({ url: null });
    });

    it.each(accepted)("%s → 200", async (url) => {
      const response = await guarded.api(path, { method: "POST", token: guardedToken, json: { url } });
      expect(response.status).toBe(200);
      await guarded.api(path, { method: "DELETE", token: guardedToken });
    });
  });
});

describe("callback URL on an address of the sandbox's own host", () => {
  /** This machine's addresses other than loopback, as a URL host. */
  const own = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith("fe80:"))
    .map((entry) => (entry.family === "IPv6" ? `[${entry.address}]` : entry.address));
  const exposedConfig = { host: "0.0.0.0", controlToken: "c".repeat(32) };

  it.runIf(own.length > 0)("is refused by an exposed sandbox (os.networkInterfaces(), nothing stubbed)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const exposed = await startTestSandbox({ config: exposedConfig, startDelivery: false });
    try {
      const token = await obtainAccessToken(exposed.url);
      for (const host of own) {
        const response = await exposed.api("/v1.0/webhooks", { method: "POST", token, json: { url: `http://${host}:3000/api/webhooks` } });
        expect(response.status, host).toBe(400);
        expect(await response.text()).not.toMatch(/resolves|this host/);
      }
    } finally {
      warn.mockRestore();
      await exposed.close();
    }
  });

  it("is refused by an exposed sandbox even when public; the name and address reach the log only", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const hostLookup: HostLookup = async () => [{ address: "93.184.215.14", family: 4 }];
    const exposed = await startTestSandbox({
      config: exposedConfig,
      lookup: hostLookup,
      hostAddresses: () => ["93.184.215.14"],
      startDelivery: false,
    });
    const local = await startTestSandbox({ lookup: hostLookup, hostAddresses: () => ["93.184.215.14"], startDelivery: false });
    try {
      const response = await exposed.api("/v1.0/webhooks", {
        method: "POST",
        token: await obtainAccessToken(exposed.url),
        json: { url: "https://vm.test/hooks" },
      });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).not.toMatch(/93\.184|resolves|this host/);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("vm.test resolves to 93.184.215.14: an address of this host"));
      const allowed = await local.api("/v1.0/webhooks", {
        method: "POST",
        token: await obtainAccessToken(local.url),
        json: { url: "https://vm.test/hooks" },
      });
      expect(allowed.status).toBe(200);
    } finally {
      warn.mockRestore();
      await exposed.close();
      await local.close();
    }
  });
});
