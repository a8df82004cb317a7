// The kit against a deliberately wrong platform: a tiny node:http server that gets most things
// right and a few wrong — the price list in an envelope of its own, absolute links on the order
// list, orders without `customer`, filters and `_sort` ignored, webhooks signed in hexadecimal.
// The kit must fail there, name the checks, and pass what the server does right. The same server
// without those faults answers the spec's other readings (links as bare query strings, a price
// list with only meta.page), which the kit accepts.
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order as specOrder, price as specPrice } from "@marketplace/api/spec-examples";
import type { CheckResult } from "./report";
import { runConformance, type ConformanceReport } from "./run";

const TOKEN = "the-right-token";
const ORDERS_PATH = "/v1.0/marketplace/orders";
const MAX_LIMIT = 100;

/** Six prices of the spec's example, for six SKUs. */
const prices = Array.from({ length: 6 }, (_, index) => ({
  ...specPrice,
  id: (index + 0x100).toString(16).padStart(24, "0"),
  sku: `CAM-00${index + 1}`,
  priceHistory: [],
}));

/** Twelve orders of the spec's example; with `faults`, each without its `customer`. */
function makeOrders(faults: boolean): Record<string, unknown>[] {
  return Array.from({ length: 12 }, (_, index) => {
    const { customer, ...order } = structuredClone(specOrder);
    const at = new Date(Date.UTC(2026, 4, 1 + index, 12)).toISOString();
    return {
      ...order,
      ...(faults ? {} : { customer }),
      id: (index + 1).toString(16).padStart(24, "0"),
      created_at: at,
      approved_at: at,
      purchased_at: at,
      updated_at: at,
    };
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function startTinyPlatform({ faults }: { faults: boolean }): Promise<{ url: string; server: Server }> {
  const orders = makeOrders(faults);
  let callback: string | null = null;
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://wrong.test");
    const body = await readBody(request);
    const send = (status: number, json: unknown) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));

    if (url.pathname === "/auth/integradores/oauth") return send(400, { error: "invalid_request" });
    if (url.pathname === "/v1.0/integradores/oauth/token")
      return send(400, { error: body.includes("client_id") ? "invalid_client" : "invalid_request" });
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: "invalid_token" });

    const route = `${request.method} ${url.pathname}`;
    if (route === "POST /v1.0/integradores/basic_user_info")
      return send(200, { user_name: "Loja Errada", user_email: "errada@example.com" });
    if (route === "GET /v1.0/marketplace/webhooks/url" || route === "GET /v1.0/webhooks") return send(200, { url: callback });
    if (route === "POST /v1.0/marketplace/webhooks/url") {
      callback = (JSON.parse(body) as { url: string }).url;
      return send(200, { message: "Callback URL saved", url: callback });
    }
    if (route === "DELETE /v1.0/marketplace/webhooks/url") {
      callback = null;
      return send(200, { message: "Callback URL removed" });
    }
    if (route === "GET /v1.0/marketplace/portfolios/prices") {
      const limit = Math.min(Number(url.searchParams.get("_limit") ?? 50), 50);
      const offset = Number(url.searchParams.get("_offset") ?? 0);
      const results = prices.slice(offset, offset + limit);
      const page = { limit, offset, count: results.length, max_limit: 50 };
      // WRONG: the page and the records under names of its own, not {meta: {page}, results}.
      if (faults) return send(200, { page, data: results });
      // Right: endpoint 7's response shows only meta.page.
      return send(200, { meta: { page }, results });
    }
    // WRONG: filters and `_sort` are ignored (only `_limit` and `_offset` are read).
    if (route === `GET ${ORDERS_PATH}`) {
      const limit = Math.min(Number(url.searchParams.get("_limit") ?? 50), MAX_LIMIT);
      const offset = Number(url.searchParams.get("_offset") ?? 0);
      const results = orders.slice(offset, offset + limit);
      // WRONG: absolute links, where the spec gives relative query strings or paths. Right: a
      // relative query string.
      const link = (at: number) => `${faults ? `http://${request.headers.host}${ORDERS_PATH}` : ""}?_limit=${limit}&_offset=${at}`;
      const links = {
        previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
        self: link(offset),
        next: offset + limit < orders.length ? link(offset + limit) : null,
      };
      return send(200, { meta: { page: { limit, offset, count: results.length, max_limit: MAX_LIMIT }, links }, results });
    }
    if (request.method === "GET" && url.pathname.startsWith(`${ORDERS_PATH}/`)) {
      const found = orders.find((order) => order.id === url.pathname.slice(ORDERS_PATH.length + 1));
      return found ? send(200, found) : send(404, { error: "not_found" });
    }
    if (route === "POST /v1.0/marketplace/portfolios/skus") {
      const sku = JSON.parse(body) as { code: string; title: Record<string, string> };
      if (!sku.title.pt_BR) {
        const errors = [{ field: "title.pt_BR", message: "is required" }];
        return send(400, {
          token: "t",
          id: null,
          sku: sku.code,
          statusCode: -4,
          statusMessage: "An sku had problems on import",
          errors,
          data: null,
        });
      }
      const id = "0000000000000000000000ff";
      send(201, {
        token: "t",
        id,
        sku: sku.code,
        statusCode: 0,
        statusMessage: "The sku was imported and will be processed",
        errors: [],
        data: sku,
      });
      if (callback) {
        const payload = JSON.stringify({ data: { domain: "portfolio.sku", status: "created", id, code: sku.code } });
        // WRONG: a hexadecimal digest, where the spec gives Base64.
        const signature = createHmac("sha256", TOKEN)
          .update(payload)
          .digest(faults ? "hex" : "base64");
        await fetch(callback, {
          method: "POST",
          headers: { "content-type": "application/json", "x-svc-signature": signature },
          body: payload,
        });
      }
      return;
    }
    return send(404, { error: "not_found" });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })),
  );
}

function check(url: string): Promise<ConformanceReport> {
  return runConformance({
    baseUrl: url,
    authUrl: url,
    token: TOKEN,
    allowWrites: true,
    listen: 0,
    webhookTimeoutMs: 5000,
    requestTimeoutMs: 5000,
  });
}

let wrong: { url: string; server: Server };
let right: { url: string; server: Server };
let report: ConformanceReport;
let rightReport: ConformanceReport;

beforeAll(async () => {
  wrong = await startTinyPlatform({ faults: true });
  right = await startTinyPlatform({ faults: false });
  report = await check(wrong.url);
  rightReport = await check(right.url);
});
afterAll(async () => {
  for (const { server } of [wrong, right]) await new Promise<void>((resolve) => server.close(() => resolve()));
});

function result(name: string, from = report): CheckResult | undefined {
  return from.results.find((entry) => entry.name === name);
}

describe("the kit against a wrong platform", () => {
  it("fails the checks of each deliberate fault, saying what is wrong", () => {
    expect(result("prices.list.envelope")).toEqual({
      name: "prices.list.envelope",
      outcome: "fail",
      reason: expect.stringMatching(/^GET \/v1\.0\/marketplace\/portfolios\/prices is not the list envelope .*meta: .*results: /),
    });
    expect(result("orders.list.links")).toEqual({
      name: "orders.list.links",
      outcome: "fail",
      reason: expect.stringMatching(
        /^meta\.links\.self of GET \/v1\.0\/marketplace\/orders\?_limit=4&_offset=4 is absolute \(http:\/\/127\.0\.0\.1:\d+\/v1\.0\/marketplace\/orders\?_limit=4&_offset=4\)/,
      ),
    });
    expect(result("orders.list.items")).toEqual({
      name: "orders.list.items",
      outcome: "fail",
      reason: expect.stringContaining("results[0].customer: "),
    });
    expect(result("orders.get")).toEqual({ name: "orders.get", outcome: "fail", reason: expect.stringContaining("customer: ") });
    expect(result("webhooks.signature")).toEqual({
      name: "webhooks.signature",
      outcome: "fail",
      reason: "X-SVC-Signature of the notification: the signature is hexadecimal, not Base64",
    });
    // Orders come oldest first whatever is asked, and every filter answers every order.
    expect(result("orders.sort.created_at:desc")).toMatchObject({
      outcome: "fail",
      reason: expect.stringMatching(/results\[1\] \(created_at 2026-05-02T12:00:00.000Z\) comes after results\[0\]/),
    });
    expect(result("orders.filter.id")).toMatchObject({
      outcome: "fail",
      reason: expect.stringMatching(/^GET \/v1\.0\/marketplace\/orders\?id=0+7&_limit=100 answered id 0+1 with id "0+1": not id = 0+7$/),
    });
    expect(result("orders.filter.updated_at__ge")).toMatchObject({
      outcome: "fail",
      reason: expect.stringContaining("not updated_at ≥ 2026-05-07T12:00:00.000Z"),
    });
  });

  it("skips what builds on a broken answer instead of failing it twice", () => {
    expect(result("prices.list.items")).toEqual({
      name: "prices.list.items",
      outcome: "skip",
      reason: "blocked: prices.list.envelope failed",
    });
    expect(result("prices.filter.sku")).toMatchObject({ outcome: "skip", reason: "blocked: prices.list.envelope failed" });
    expect(result("orders.list.links-follow")).toEqual({
      name: "orders.list.links-follow",
      outcome: "skip",
      reason: "blocked: orders.list.links failed",
    });
  });

  it("passes what the server does right", () => {
    const right = [
      "oauth.token.missing-fields",
      "auth.missing-token",
      "auth.wrong-token",
      "user.basic-info",
      "webhook-url.get",
      "orders.list.envelope",
      "orders.list.defaults",
      "orders.list.limit-one",
      "orders.list.max-limit",
      "orders.list.above-max-limit",
      "orders.list.offset",
      "orders.sort.created_at:asc",
      "orders.timestamps",
      "skus.create",
      "skus.create.invalid",
      "webhook-url.set",
      "webhooks.notification",
      "webhook-url.restore",
    ];
    expect(right.map((name) => [name, result(name)?.outcome])).toEqual(right.map((name) => [name, "pass"]));
  });

  it("npm run conformance exits 1 and names the failing checks", async () => {
    const root = path.resolve(import.meta.dirname, "..");
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        path.join(root, "node_modules/.bin/tsx"),
        ["conformance/main.ts", "--base-url", wrong.url, "--token", TOKEN],
        { cwd: root, timeout: 60_000 },
        (error, stdout) => resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout }),
      );
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("FAIL  prices.list.envelope — ");
    expect(run.stdout).toContain("FAIL  orders.list.links — ");
    expect(run.stdout).toContain("FAIL  orders.list.items — ");
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(/ failed, \d+ skipped — FAILED$/);
  });
});

describe("the same server without the faults", () => {
  it("passes with links as relative query strings and a price list without links", () => {
    for (const name of [
      "prices.list.envelope",
      "prices.list.items",
      "prices.list.price-history",
      "orders.list.items",
      "orders.list.links",
      "orders.list.links-follow",
      "orders.get",
      "webhooks.signature",
    ]) {
      expect([name, result(name, rightReport)?.outcome]).toEqual([name, "pass"]);
    }
    expect(result("orders.list.links", rightReport)?.reason).toContain("previous → 0, self → 4, next → 8");
    expect(result("prices.list.links", rightReport)).toMatchObject({
      outcome: "skip",
      reason: "no meta.links: the price list response of endpoint 7 shows only meta.page",
    });
  });
});
