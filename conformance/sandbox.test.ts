// The kit against the sandbox, started in-process: every check the sandbox can be put through
// passes, writes and the webhook round trip included, and the account is left as it was found.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "@marketplace/sandbox/testing";
import type { ConformanceOptions } from "./options";
import type { CheckResult, Outcome } from "./report";
import { CHECKS, runConformance, type ConformanceReport } from "./run";

const CALLBACK_PATH = "/v1.0/marketplace/webhooks/url";
let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { seedOrders: 60 } });
});
afterEach(() => sandbox.handle.reset());
afterAll(() => sandbox.close());

function options(token: string, extra: Partial<ConformanceOptions> = {}): ConformanceOptions {
  return {
    baseUrl: sandbox.url,
    authUrl: sandbox.url,
    token,
    allowWrites: false,
    webhookTimeoutMs: 10_000,
    requestTimeoutMs: 10_000,
    ...extra,
  };
}

function named(report: ConformanceReport, outcome: Outcome): string[] {
  return report.results.filter((result) => result.outcome === outcome).map((result) => result.name);
}

function result(report: ConformanceReport, name: string): CheckResult | undefined {
  return report.results.find((entry) => entry.name === name);
}

async function callbackUrl(token: string): Promise<unknown> {
  return (await sandbox.api(CALLBACK_PATH, { token })).json();
}

describe("the kit against the sandbox", () => {
  it("passes every check, with writes and the webhook round trip", async () => {
    const token = await obtainAccessToken(sandbox.url);
    const report = await runConformance(options(token, { allowWrites: true, listen: 0 }));

    expect(named(report, "fail")).toEqual([]);
    // The one check a token holding every scope cannot run.
    expect(report.results.filter((entry) => entry.outcome === "skip")).toEqual([
      { name: "auth.missing-scope", outcome: "skip", reason: expect.stringContaining("the token holds every scope probed") },
    ]);
    expect(report.results.map((entry) => entry.name)).toEqual(CHECKS.map((check) => check.name));
    expect(report.summary).toEqual({ total: CHECKS.length, passed: CHECKS.length - 1, failed: 0, skipped: 1 });
    expect(result(report, "webhooks.signature")?.reason).toBe("X-SVC-Signature is Base64(HMAC-SHA256(raw body, access token))");
    // No callback URL before the run: none after it.
    expect(await callbackUrl(token)).toEqual({ url: null });
  });

  it("puts the previous callback URL back", async () => {
    const token = await obtainAccessToken(sandbox.url);
    const previous = "http://127.0.0.1:9/integrator-hooks";
    expect((await sandbox.api(CALLBACK_PATH, { method: "POST", token, json: { url: previous } })).status).toBe(200);

    const report = await runConformance(options(token, { allowWrites: true, listen: 0 }));

    expect(result(report, "webhook-url.restore")).toEqual({
      name: "webhook-url.restore",
      outcome: "pass",
      reason: "the previous callback URL is set again",
    });
    expect(await callbackUrl(token)).toEqual({ url: previous });
  });

  it("after Ctrl-C, skips what is left but still restores the callback URL", async () => {
    const token = await obtainAccessToken(sandbox.url);
    const interrupt = new AbortController();
    const report = await runConformance(options(token, { allowWrites: true, listen: 0 }), {
      signal: interrupt.signal,
      onResult: (entry) => {
        if (entry.name === "webhook-url.set") interrupt.abort();
      },
    });

    expect(result(report, "webhook-url.set")?.outcome).toBe("pass");
    expect(result(report, "skus.create")).toEqual({ name: "skus.create", outcome: "skip", reason: "interrupted" });
    expect(result(report, "webhook-url.restore")?.outcome).toBe("pass");
    expect(await callbackUrl(token)).toEqual({ url: null });
  });

  it("checks the 403 of a missing scope with a token that lacks some, and skips what it cannot do", async () => {
    const token = await obtainAccessToken(sandbox.url, { scopes: ["portfolio:read", "order-order:read"] });
    const report = await runConformance(options(token, { allowWrites: true, listen: 0 }));

    expect(named(report, "fail")).toEqual([]);
    expect(result(report, "auth.missing-scope")).toEqual({
      name: "auth.missing-scope",
      outcome: "pass",
      reason: "the basic user info answered 403 to a token without basic_user_info",
    });
    expect(result(report, "user.basic-info")).toMatchObject({ outcome: "skip", reason: expect.stringContaining("lacks basic_user_info") });
    // SKU creation needs portfolio:write: 403 with statusCode -6, so nothing is created or awaited.
    expect(result(report, "skus.create")).toMatchObject({
      outcome: "skip",
      reason: "the token lacks portfolio:write and portfolio:read: answered 403",
    });
    expect(result(report, "prices.create")).toMatchObject({ outcome: "skip", reason: "blocked: skus.create created no SKU" });
    expect(result(report, "webhooks.notification")?.outcome).toBe("skip");
    expect(result(report, "webhook-url.restore")?.outcome).toBe("pass");
  });

  it("without --allow-writes, writes nothing", async () => {
    const token = await obtainAccessToken(sandbox.url);
    const before = (await (await sandbox.api("/v1.0/marketplace/portfolios/prices?_limit=200", { token })).json()) as {
      results: unknown[];
    };

    const report = await runConformance(options(token));

    for (const name of ["webhook-url.set", "skus.create", "prices.create", "webhooks.signature"]) {
      expect(result(report, name)).toMatchObject({ outcome: "skip", reason: "needs --allow-writes" });
    }
    const after = (await (await sandbox.api("/v1.0/marketplace/portfolios/prices?_limit=200", { token })).json()) as { results: unknown[] };
    expect(after.results).toEqual(before.results);
  });
});

const ROOT = path.resolve(import.meta.dirname, "..");

function runCommand(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["conformance/main.ts", ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe("npm run conformance", () => {
  it("prints one line per check and a summary, and exits 0 when nothing fails", async () => {
    const token = await obtainAccessToken(sandbox.url);
    // The token from the environment: out of the process list.
    const { code, stdout } = await runCommand(["--base-url", sandbox.url], { CONFORMANCE_TOKEN: token });

    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe(`Conformance of ${sandbox.url}; writes off (--allow-writes to check SKU and price creation)`);
    expect(lines.slice(1, -1)).toHaveLength(CHECKS.length);
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/^(PASS|SKIP) {2}\S+ — \S/);
    expect(stdout).toContain("PASS  orders.list.links — relative links at GET /v1.0/marketplace/orders?_limit=");
    expect(stdout).toContain("SKIP  oauth.authorize.missing-client-id — no --auth-url given");
    expect(lines.at(-1)).toMatch(new RegExp(`^${CHECKS.length} checks: \\d+ passed, 0 failed, \\d+ skipped — OK$`));
  });

  it("on Ctrl-C restores the callback URL, says INTERRUPTED and exits 130", async () => {
    const token = await obtainAccessToken(sandbox.url);
    // A callback URL nothing listens on: the notification never comes, so the run waits for it.
    const args = [
      "conformance/main.ts",
      "--base-url",
      sandbox.url,
      "--allow-writes",
      "--listen",
      "0",
      "--callback-url",
      "http://127.0.0.1:9/nowhere",
    ];
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), args, { cwd: ROOT, env: { ...process.env, CONFORMANCE_TOKEN: token } });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("prices.create.update")) child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));

    expect(code).toBe(130);
    expect(stdout).toContain("SKIP  webhooks.notification — interrupted");
    expect(stdout).toContain("PASS  webhook-url.restore — removed with DELETE");
    expect(stdout.trim().split("\n").at(-1)).toMatch(/ 0 failed, \d+ skipped — INTERRUPTED$/);
    expect(await callbackUrl(token)).toEqual({ url: null });
  });

  it("exits 2 on a usage error", async () => {
    const { code, stderr } = await runCommand(["--token", "x"]);
    expect(code).toBe(2);
    expect(stderr).toContain("--base-url");
  });
});
