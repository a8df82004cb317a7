import { describe, expect, it } from "vitest";
import { assertSupportedNode, parseEnv } from "./env.js";

const realPlatform = {
  NODE_ENV: "production",
  MARKETPLACE_AUTH_URL: "https://auth.marketplace.example",
  MARKETPLACE_BASE_URL: "https://api.marketplace.example",
};

const realSecrets = {
  DATABASE_URL: "postgresql://dashboard:pw@db.internal:5432/dashboard",
  MARKETPLACE_CLIENT_ID: "app-123",
  MARKETPLACE_CLIENT_SECRET: "s3cret",
  AUTH_SECRET: "a".repeat(43),
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  VAPID_PUBLIC_KEY: `B${"A".repeat(86)}`,
  VAPID_PRIVATE_KEY: "A".repeat(43),
};

describe("parseEnv", () => {
  it("defaults to the local sandbox and the demo integrator with no variables set", () => {
    const env = parseEnv({});
    expect(env.MARKETPLACE_AUTH_URL).toBe("http://localhost:4010");
    expect(env.MARKETPLACE_BASE_URL).toBe("http://localhost:4010");
    expect(env.MARKETPLACE_CLIENT_ID).toBe("demo-integrator");
    expect(env.MARKETPLACE_CLIENT_SECRET).toBe("demo-secret");
    expect(env.EMBEDDED_DATABASE).toBe(true);
    // The checkout's own port (scripts/lib/embedded-port.test.ts).
    expect(env.DATABASE_URL).toMatch(new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${env.EMBEDDED_DATABASE_PORT}/dashboard$`));
    expect(env.SANDBOX_MODE).toBe(true);
    expect(env.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(env.TOKEN_ENCRYPTION_KEY, "base64")).toHaveLength(32);
  });

  it("keeps the generated development secrets stable across starts", () => {
    expect(parseEnv({}).TOKEN_ENCRYPTION_KEY).toBe(parseEnv({}).TOKEN_ENCRYPTION_KEY);
    expect(parseEnv({}).AUTH_SECRET).toBe(parseEnv({}).AUTH_SECRET);
    expect(parseEnv({}).VAPID_PRIVATE_KEY).toBe(parseEnv({}).VAPID_PRIVATE_KEY);
  });

  it("generates a usable VAPID key pair for development", () => {
    const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = parseEnv({});
    expect(Buffer.from(VAPID_PUBLIC_KEY, "base64url")).toHaveLength(65);
    expect(Buffer.from(VAPID_PUBLIC_KEY, "base64url")[0]).toBe(4);
    expect(Buffer.from(VAPID_PRIVATE_KEY, "base64url")).toHaveLength(32);
    expect(VAPID_SUBJECT).toBe("mailto:avisos@localhost");
  });

  it("refuses to start in production against a real platform without secrets, naming each", () => {
    expect(() => parseEnv(realPlatform)).toThrow(
      /DATABASE_URL, MARKETPLACE_CLIENT_ID, MARKETPLACE_CLIENT_SECRET, AUTH_SECRET, TOKEN_ENCRYPTION_KEY, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY/,
    );
    const { AUTH_SECRET: _omitted, ...allButOne } = realSecrets;
    expect(() => parseEnv({ ...realPlatform, ...allButOne })).toThrow(
      /Missing required environment variable for production: AUTH_SECRET\./,
    );
  });

  it("starts in production against a real platform when every secret is given", () => {
    const env = parseEnv({ ...realPlatform, ...realSecrets });
    expect(env.SANDBOX_MODE).toBe(false);
    expect(env.MARKETPLACE_CLIENT_ID).toBe("app-123");
    expect(env.TOKEN_ENCRYPTION_KEY).toBe(realSecrets.TOKEN_ENCRYPTION_KEY);
    expect(env.DATABASE_URL).toBe(realSecrets.DATABASE_URL);
    expect(env.EMBEDDED_DATABASE).toBe(false);
  });

  it("requires https for the platform and the public URL in production, loopback excepted", () => {
    expect(() => parseEnv({ ...realPlatform, ...realSecrets, MARKETPLACE_BASE_URL: "http://api.marketplace.example" })).toThrow(
      /MARKETPLACE_BASE_URL must be https/,
    );
    expect(() => parseEnv({ ...realPlatform, ...realSecrets, PUBLIC_BASE_URL: "http://dashboard.example" })).toThrow(
      /PUBLIC_BASE_URL must be https/,
    );
    expect(parseEnv({ ...realPlatform, ...realSecrets, PUBLIC_BASE_URL: "https://dashboard.example" }).PUBLIC_BASE_URL).toBe(
      "https://dashboard.example",
    );
    expect(parseEnv({ ...realPlatform, ...realSecrets, PUBLIC_BASE_URL: "http://127.0.0.1:3000" }).PUBLIC_BASE_URL).toBe(
      "http://127.0.0.1:3000",
    );
  });

  it("rejects malformed values with a message naming the variable", () => {
    expect(() => parseEnv({ MARKETPLACE_BASE_URL: "not a url" })).toThrow(/MARKETPLACE_BASE_URL/);
    expect(() => parseEnv({ MARKETPLACE_BASE_URL: "ftp://example.com" })).toThrow(/MARKETPLACE_BASE_URL/);
    expect(() => parseEnv({ DATABASE_URL: "file:.data/dashboard.db" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ EMBEDDED_DATABASE_PORT: "80" })).toThrow(/EMBEDDED_DATABASE_PORT/);
    expect(() => parseEnv({ TOKEN_ENCRYPTION_KEY: "too-short" })).toThrow(/TOKEN_ENCRYPTION_KEY/);
    expect(() => parseEnv({ MARKETPLACE_SCOPES: "a  b" })).toThrow(/MARKETPLACE_SCOPES/);
    expect(() => parseEnv({ SANDBOX_PORT: "70000" })).toThrow(/SANDBOX_PORT/);
  });

  it("logs readable lines under npm run dev and JSON lines otherwise, at info (none under the test runner)", () => {
    expect(parseEnv({ NODE_ENV: "development" })).toMatchObject({ LOG_FORMAT: "pretty", LOG_LEVEL: "info" });
    expect(parseEnv({ NODE_ENV: "production" })).toMatchObject({ LOG_FORMAT: "json", LOG_LEVEL: "info" });
    expect(parseEnv({ NODE_ENV: "test" })).toMatchObject({ LOG_FORMAT: "json", LOG_LEVEL: "silent" });
    expect(parseEnv({ NODE_ENV: "development", LOG_FORMAT: "json", LOG_LEVEL: "debug" })).toMatchObject({
      LOG_FORMAT: "json",
      LOG_LEVEL: "debug",
    });
    expect(() => parseEnv({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
    expect(() => parseEnv({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL/);
  });

  it("serves metrics on 127.0.0.1:9464 unless told otherwise, and none under the test runner", () => {
    expect(parseEnv({ NODE_ENV: "production" })).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: "127.0.0.1" });
    expect(parseEnv({ NODE_ENV: "test" }).METRICS_PORT).toBeNull();
    expect(parseEnv({ METRICS_PORT: "off" }).METRICS_PORT).toBeNull();
    expect(parseEnv({ NODE_ENV: "test", METRICS_PORT: "9500" }).METRICS_PORT).toBe(9500);
    expect(parseEnv({ METRICS_PORT: "0" }).METRICS_PORT).toBe(0);
    expect(parseEnv({ METRICS_HOST: "0.0.0.0" }).METRICS_HOST).toBe("0.0.0.0");
    expect(() => parseEnv({ METRICS_PORT: "no" })).toThrow(/METRICS_PORT/);
    expect(() => parseEnv({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(() => parseEnv({ METRICS_HOST: "not a host" })).toThrow(/METRICS_HOST/);
  });

  it("accepts a hex encryption key and strips trailing slashes from URLs", () => {
    const env = parseEnv({
      TOKEN_ENCRYPTION_KEY: "ab".repeat(32),
      MARKETPLACE_BASE_URL: "http://127.0.0.1:4010/",
    });
    expect(env.MARKETPLACE_BASE_URL).toBe("http://127.0.0.1:4010");
    expect(env.SANDBOX_MODE).toBe(true);
  });
});

describe("assertSupportedNode", () => {
  it("stops an out-of-support Node.js, saying how to run the project on 24", () => {
    expect(() => assertSupportedNode("20.20.2")).toThrow(
      /Node\.js 20\.20\.2 is out of support; this project runs on Node\.js 24 LTS\. Start it through npm/,
    );
    expect(() => assertSupportedNode("22.18.0")).toThrow(/out of support/);
    expect(() => assertSupportedNode("garbage")).toThrow(/out of support/);
  });

  it("lets 24 and later run", () => {
    expect(() => assertSupportedNode("24.21.0")).not.toThrow();
    expect(() => assertSupportedNode("26.0.0")).not.toThrow();
  });

  it("is what this test runs on: npm's PATH puts the node package's Node.js 24 first", () => {
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(24);
  });
});
