import { describe, expect, it } from "vitest";
import { assertSafeExposure, callbackPolicy, isExposed, loadSandboxConfig } from "./config";

describe("SANDBOX_CALLBACK_SCOPE", () => {
  it("defaults to one callback URL per application and user", () => {
    expect(loadSandboxConfig({}).callbackScope).toBe("user");
  });

  it("accepts application", () => {
    expect(loadSandboxConfig({ SANDBOX_CALLBACK_SCOPE: "application" }).callbackScope).toBe("application");
  });

  it("stops the sandbox on another value, naming the variable", () => {
    expect(() => loadSandboxConfig({ SANDBOX_CALLBACK_SCOPE: "tenant" })).toThrow(/SANDBOX_CALLBACK_SCOPE/);
  });
});

describe("SANDBOX_HOST", () => {
  it("defaults to 127.0.0.1: not exposed", () => {
    const config = loadSandboxConfig({});
    expect(config.host).toBe("127.0.0.1");
    expect(isExposed(config)).toBe(false);
  });

  it.each([
    ["localhost", false],
    ["::1", false],
    ["127.0.0.2", false],
    ["0.0.0.0", true],
    ["::", true],
    ["192.168.1.20", true],
    ["sandbox.internal", true],
  ])("%s → exposed %s", (host, exposed) => {
    expect(isExposed(loadSandboxConfig({ SANDBOX_HOST: host }))).toBe(exposed);
  });

  it.each(["[::1]", "http://0.0.0.0", "host name", "-bad-"])("refuses %s, naming the variable", (host) => {
    expect(() => loadSandboxConfig({ SANDBOX_HOST: host })).toThrow(/SANDBOX_HOST/);
  });
});

describe("SANDBOX_CONTROL_TOKEN", () => {
  it("is optional; an empty value counts as unset", () => {
    expect(loadSandboxConfig({}).controlToken).toBeUndefined();
    expect(loadSandboxConfig({ SANDBOX_CONTROL_TOKEN: "" }).controlToken).toBeUndefined();
    expect(loadSandboxConfig({ SANDBOX_CONTROL_TOKEN: "a".repeat(32) }).controlToken).toBe("a".repeat(32));
  });

  it.each(["short", "has a space in it!!", "tab\tinside-0123456789"])("refuses %j, naming the variable", (token) => {
    expect(() => loadSandboxConfig({ SANDBOX_CONTROL_TOKEN: token })).toThrow(/SANDBOX_CONTROL_TOKEN/);
  });
});

describe("exposure checks", () => {
  it("an exposed sandbox with the control API on and no token does not start, naming SANDBOX_CONTROL_TOKEN", () => {
    expect(() => assertSafeExposure(loadSandboxConfig({ SANDBOX_HOST: "0.0.0.0" }))).toThrow(/SANDBOX_CONTROL_TOKEN/);
    expect(() => assertSafeExposure(loadSandboxConfig({ SANDBOX_HOST: "0.0.0.0", SANDBOX_CONTROL: "off" }))).not.toThrow();
    expect(() => assertSafeExposure(loadSandboxConfig({ SANDBOX_HOST: "0.0.0.0", SANDBOX_CONTROL_TOKEN: "t".repeat(16) }))).not.toThrow();
    expect(() => assertSafeExposure(loadSandboxConfig({}))).not.toThrow();
  });

  it("loopback and private callbacks: allowed on loopback; when exposed only with SANDBOX_ALLOW_PRIVATE_CALLBACKS", () => {
    const exposed = { SANDBOX_HOST: "0.0.0.0", SANDBOX_CONTROL: "off" };
    expect(callbackPolicy(loadSandboxConfig({})).allowLoopbackAndPrivate).toBe(true);
    expect(callbackPolicy(loadSandboxConfig(exposed)).allowLoopbackAndPrivate).toBe(false);
    expect(callbackPolicy(loadSandboxConfig({ ...exposed, SANDBOX_ALLOW_PRIVATE_CALLBACKS: "1" })).allowLoopbackAndPrivate).toBe(true);
    expect(() => loadSandboxConfig({ SANDBOX_ALLOW_PRIVATE_CALLBACKS: "maybe" })).toThrow(/SANDBOX_ALLOW_PRIVATE_CALLBACKS/);
  });
});

describe("delivery bounds", () => {
  it("default to a log of 10,000 deliveries and 32 attempts at once", () => {
    expect(loadSandboxConfig({})).toMatchObject({ deliveryLogSize: 10_000, deliveryConcurrency: 32 });
    expect(loadSandboxConfig({ SANDBOX_DELIVERY_LOG_SIZE: "500", SANDBOX_DELIVERY_CONCURRENCY: "4" })).toMatchObject({
      deliveryLogSize: 500,
      deliveryConcurrency: 4,
    });
  });

  it.each([
    ["SANDBOX_DELIVERY_LOG_SIZE", "0"],
    ["SANDBOX_DELIVERY_LOG_SIZE", "many"],
    ["SANDBOX_DELIVERY_CONCURRENCY", "0"],
    ["SANDBOX_DELIVERY_CONCURRENCY", "1.5"],
  ])("%s=%s stops the sandbox, naming the variable", (name, value) => {
    expect(() => loadSandboxConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe("SANDBOX_LENIENT", () => {
  it("is off by default: list parameters follow the spec", () => {
    expect(loadSandboxConfig({}).lenient).toBe(false);
    expect(loadSandboxConfig({ SANDBOX_LENIENT: "0" }).lenient).toBe(false);
  });

  it.each(["1", "on", "true"])("%s turns it on", (value) => {
    expect(loadSandboxConfig({ SANDBOX_LENIENT: value }).lenient).toBe(true);
  });

  it("stops the sandbox on another value, naming the variable", () => {
    expect(() => loadSandboxConfig({ SANDBOX_LENIENT: "sometimes" })).toThrow(/SANDBOX_LENIENT/);
  });
});

describe("SANDBOX_SEED_BASE", () => {
  it("is unset by default: the seed runs up to the sandbox clock when it seeds", () => {
    expect(loadSandboxConfig({}).seedBase).toBeUndefined();
    expect(loadSandboxConfig({ SANDBOX_SEED_BASE: " " }).seedBase).toBeUndefined();
  });

  it.each([
    ["2026-11-01T12:00:00Z", "2026-11-01T12:00:00.000Z"],
    ["2026-11-01T09:00:00.000-03:00", "2026-11-01T12:00:00.000Z"],
    ["2026-11-01", "2026-11-01T00:00:00.000Z"],
  ])("pins it to %s", (value, instant) => {
    expect(loadSandboxConfig({ SANDBOX_SEED_BASE: value }).seedBase).toBe(Date.parse(instant));
  });

  it.each(["yesterday", "2026-11-01T12:00:00", "2026-13-01", "1969-12-31T00:00:00Z", "2150-01-01"])(
    "refuses %j, naming the variable",
    (value) => {
      expect(() => loadSandboxConfig({ SANDBOX_SEED_BASE: value })).toThrow(/SANDBOX_SEED_BASE/);
    },
  );
});
