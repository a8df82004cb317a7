import { request as httpRequest, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import { FORM_BODY_LIMIT_BYTES, JSON_BODY_LIMIT_BYTES } from "./body-limit";
import { authorizeQuery, obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ config: { seedOrders: 0 } });
  token = await obtainAccessToken(sandbox.url);
});
afterAll(() => sandbox.close());

interface StreamedPost {
  status: number;
  contentType: string | undefined;
  body: string;
  /** Bytes the client had written when the answer came. */
  sent: number;
}

/**
 * POSTs `totalBytes` of `x` with chunked encoding, generated chunk by chunk (one 64 KiB buffer,
 * reused), and stops writing as soon as the answer arrives. `declaredLength` sends a
 * Content-Length instead, and no body at all.
 */
function streamPost(path: string, totalBytes: number, options: { contentType: string; declaredLength?: boolean }): Promise<StreamedPost> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const outgoing = httpRequest(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": options.contentType, ...(options.declaredLength ? { "Content-Length": String(totalBytes) } : {}) },
    });
    outgoing.on("response", (response: IncomingMessage) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers["content-type"],
          body: Buffer.concat(parts).toString("utf8"),
          sent,
        });
        outgoing.destroy();
      });
      response.on("error", reject);
    });
    // Once the server has answered it may close the connection under a write: that is not a failure.
    outgoing.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (options.declaredLength) {
      outgoing.flushHeaders();
      return;
    }
    const writeMore = () => {
      while (!answered && sent < totalBytes) {
        const piece = totalBytes - sent >= chunk.length ? chunk : chunk.subarray(0, totalBytes - sent);
        sent += piece.length;
        if (!outgoing.write(piece)) {
          outgoing.once("drain", writeMore);
          return;
        }
      }
      if (!answered) outgoing.end();
    };
    writeMore();
  });
}

describe("body limits", () => {
  it("a 300 MB chunked POST to the token endpoint → 413 in the OAuth error shape, with the process's memory flat", async () => {
    const total = 300 * 1024 * 1024;
    const before = process.memoryUsage().rss;
    const answer = await streamPost("/v1.0/integradores/oauth/token", total, { contentType: "application/x-www-form-urlencoded" });
    const after = process.memoryUsage().rss;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      `300 MB POST: rss before ${mb(before)} MB, after ${mb(after)} MB (grew ${mb(after - before)} MB); the client had sent ${mb(answer.sent)} MB when answered`,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: "invalid_request",
      error_description: "The request body is larger than 64 KiB (65536 bytes)",
    });
    expect(answer.sent).toBeLessThan(total);
    expect(after - before).toBeLessThan(50 * 1024 * 1024);
  });

  it("a declared Content-Length above the limit → 413 before any of the body is sent", async () => {
    const answer = await streamPost("/v1.0/integradores/oauth/token", 300 * 1024 * 1024, {
      contentType: "application/x-www-form-urlencoded",
      declaredLength: true,
    });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBe(0);
  });

  it("token endpoint: exactly 64 KiB is read (and refused for what it says), one byte more is 413", async () => {
    const form = (size: number) => `code=${"a".repeat(size - "code=".length)}`;
    const post = (body: string) =>
      fetch(`${sandbox.url}/v1.0/integradores/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
    const atLimit = await post(form(FORM_BODY_LIMIT_BYTES));
    expect(atLimit.status).toBe(400);
    expect(await atLimit.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("Missing parameter"),
    });
    const over = await post(form(FORM_BODY_LIMIT_BYTES + 1));
    expect(over.status).toBe(413);
    expect(over.headers.get("Cache-Control")).toBe("no-store");
  });

  it("consent form: above 64 KiB → 413 HTML page, chunked or not", async () => {
    const path = `/auth/integradores/oauth?${authorizeQuery()}`;
    const declared = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `login=${"x".repeat(FORM_BODY_LIMIT_BYTES)}`,
      redirect: "manual",
    });
    expect(declared.status).toBe(413);
    expect(declared.headers.get("Content-Type")).toContain("text/html");
    expect(await declared.text()).toContain("larger than 64 KiB");
    const chunked = await streamPost(path, 1024 * 1024, { contentType: "application/x-www-form-urlencoded" });
    expect(chunked.status).toBe(413);
    expect(chunked.contentType).toContain("text/html");
  });

  it.each<[string, string, { method?: string; auth?: boolean }, unknown]>([
    [
      "callback URL",
      "/v1.0/webhooks",
      { auth: true },
      { error: { code: "payload_too_large", message: "The request body is larger than 1 MiB (1048576 bytes)" } },
    ],
    ["basic user info", "/v1.0/integradores/basic_user_info", { auth: true }, { error: { code: "payload_too_large" } }],
    ["control API", "/_sandbox/orders", {}, { error: { code: "payload_too_large" } }],
    [
      "SKU create",
      "/v1.0/marketplace/portfolios/skus",
      { auth: true },
      { statusCode: -4, id: null, errors: [{ field: "body", message: "The request body is larger than 1 MiB (1048576 bytes)" }] },
    ],
    ["price create", "/v1.0/marketplace/portfolios/prices", { auth: true }, { statusCode: -4, id: null, errors: [{ field: "body" }] }],
    ["an unknown route", "/v1.0/nothing-here", {}, { error: { code: "payload_too_large" } }],
  ])("%s: a JSON body above 1 MiB → 413 in that route's error shape", async (_name, path, init, expected) => {
    const big = JSON.stringify({ padding: "x".repeat(JSON_BODY_LIMIT_BYTES) });
    const response = await sandbox.api(path, {
      method: init.method ?? "POST",
      ...(init.auth ? { token } : {}),
      body: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject(expected as Record<string, unknown>);
  });

  it("after a 413 for a declared length, the kept-alive connection still serves the next request", async () => {
    for (let i = 0; i < 3; i++) {
      const big = await sandbox.api("/_sandbox/orders", {
        method: "POST",
        body: "x".repeat(JSON_BODY_LIMIT_BYTES + 1),
        headers: { "Content-Type": "application/json" },
      });
      expect(big.status).toBe(413);
      expect(big.headers.get("Connection")).not.toBe("close");
      expect((await sandbox.api("/_sandbox/health")).status).toBe(200);
    }
  });

  it("a JSON body of exactly 1 MiB reaches the route", async () => {
    const sku = sampleSku("BIG-1");
    const base = JSON.stringify({ ...sku, extras: { padding: "" } });
    const body = JSON.stringify({ ...sku, extras: { padding: "x".repeat(JSON_BODY_LIMIT_BYTES - Buffer.byteLength(base)) } });
    expect(Buffer.byteLength(body)).toBe(JSON_BODY_LIMIT_BYTES);
    const response = await sandbox.api("/v1.0/marketplace/portfolios/skus", {
      method: "POST",
      token,
      body,
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(201);
  });

  it("chunked JSON above 1 MiB → 413 as soon as the limit is passed", async () => {
    const answer = await streamPost("/_sandbox/reset", 20 * 1024 * 1024, { contentType: "application/json" });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "payload_too_large" } });
  });
});
