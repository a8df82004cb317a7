import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { MarketplaceError } from "@marketplace/api/errors";
import { PRICE_STATUS } from "@marketplace/api/schemas/price";
import type { PriceCreateResponse } from "@marketplace/api/schemas/price";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { applyPriceRows, classifyCreatePrice } from "./bulk-apply";
import type { ApplyPriceRowsOptions, HeldOutcome, RowResult } from "./bulk-apply";
import { describeBulkMessage } from "./bulk-messages";
import type { BulkMessage, BulkMessageWords } from "./bulk-messages";

/** A failed row's reason as the seller reads it in `locale`. */
const worded = (reason: BulkMessage, locale: "en" | "pt-BR" = "en") =>
  describeBulkMessage(
    reason,
    createTranslator({
      locale,
      messages: catalogues[locale] as Messages,
      namespace: "prices.bulk.messages",
    }) as unknown as BulkMessageWords,
  );
const reasonOf = (result: RowResult<Row> | undefined) => (result?.outcome === "failed" ? worded(result.reason) : undefined);

interface Row {
  line: number;
  sku: string;
  value: number;
  transientFailures?: number;
}

const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, i) => ({ line: i + 2, sku: `SKU-${i + 1}`, value: 1000 + i }));

/**
 * An in-memory platform: a fake clock that `sleep` advances, a fixed one-minute window limiter
 * per "user" like the sandbox's, and per-SKU scripted failures. Every call is logged.
 */
function fakePlatform(
  options: {
    limitPerMinute?: number;
    transient?: Record<string, number>;
    reject?: string[];
    latencyMs?: number;
    blockedAsBody?: boolean;
    sendRetryAfter?: boolean;
  } = {},
) {
  let clock = 1_000_000;
  let windowStart = clock;
  let windowCount = 0;
  const calls: { sku: string; at: number }[] = [];
  const prices = new Map<string, number>();
  const transientLeft = { ...options.transient };
  const sleeps: number[] = [];

  const response = (statusCode: number, statusMessage: string, id: string | null = null): PriceCreateResponse => ({
    token: "t",
    id,
    statusCode,
    statusMessage,
    errors: statusCode === -4 ? [{ field: "sku", message: "no SKU with this code" }] : [],
    data: null,
  });

  const createPrice = async (row: Row): Promise<PriceCreateResponse & { retryAfterMs?: number }> => {
    calls.push({ sku: row.sku, at: clock });
    clock += options.latencyMs ?? 5;
    if (options.limitPerMinute !== undefined) {
      if (clock - windowStart >= 60_000) {
        windowStart = clock;
        windowCount = 0;
      }
      windowCount++;
      if (windowCount > options.limitPerMinute) {
        // Like the sandbox: Retry-After is the time left in the window.
        const retryAfterMs = options.sendRetryAfter ? windowStart + 60_000 - clock : undefined;
        if (options.blockedAsBody)
          return { ...response(PRICE_STATUS.blocked.statusCode, PRICE_STATUS.blocked.statusMessage), retryAfterMs };
        throw new MarketplaceError("rate_limited", "Too many requests", { status: 429, retryAfterMs });
      }
    }
    const left = transientLeft[row.sku] ?? 0;
    if (left > 0) {
      transientLeft[row.sku] = left - 1;
      throw new MarketplaceError("unavailable", "The marketplace answered HTTP 500", { status: 500 });
    }
    if (options.reject?.includes(row.sku)) return response(-4, PRICE_STATUS.invalid.statusMessage);
    prices.set(row.sku, row.value);
    const id = row.sku
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .padStart(24, "0")
      .slice(-24)
      .replace(/[^0-9a-f]/g, "a");
    return response(0, PRICE_STATUS.imported.statusMessage, id);
  };

  const base: Pick<ApplyPriceRowsOptions<Row>, "createPrice" | "sleep" | "now" | "random"> = {
    createPrice,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
  };
  return { base, calls, prices, sleeps, advance: (ms: number) => (clock += ms) };
}

function expectOneOutcomePerRow(rows: Row[], results: RowResult<Row>[]) {
  const lines = results.map((result) => result.row.line).sort((a, b) => a - b);
  expect(lines).toEqual(rows.map((row) => row.line));
}

describe("applyPriceRows", () => {
  it("applies every row once, in order, with the platform's price id", async () => {
    const platform = fakePlatform();
    const rows = rowsOf(5);
    const seen: RowResult<Row>[] = [];
    const result = await applyPriceRows(rows, { ...platform.base, onResult: (r) => seen.push(r) });
    expect(result.stoppedBy).toBe("done");
    expect(result.pending).toEqual([]);
    expect(result.results.map((r) => r.outcome)).toEqual(Array(5).fill("applied"));
    expect(seen).toEqual(result.results);
    expect(platform.calls.map((call) => call.sku)).toEqual(rows.map((row) => row.sku));
    expect(result.results[0]).toMatchObject({ outcome: "applied", priceId: expect.stringMatching(/^[0-9a-f]{24}$/) });
  });

  it("slows down when blocked in the middle (HTTP 429), retries the same row, and loses or repeats none", async () => {
    const platform = fakePlatform({ limitPerMinute: 10 });
    const rows = rowsOf(25);
    const result = await applyPriceRows(rows, { ...platform.base });
    expect(result.stoppedBy).toBe("done");
    expectOneOutcomePerRow(rows, result.results);
    expect(result.results.every((r) => r.outcome === "applied")).toBe(true);
    expect(platform.prices.size).toBe(25);
    expect(result.slowDowns).toBeGreaterThan(0);
    // Equal jitter with random 0.5: 0.75 × 1 s, 2 s, 4 s, 8 s, 16 s (capped)…
    expect(platform.sleeps.slice(0, 5)).toEqual([750, 1500, 3000, 6000, 12000]);
    // Each row was accepted exactly once; the blocked attempts were of the row after the 10th.
    const accepted = [...platform.prices.keys()];
    expect(accepted).toEqual(rows.map((row) => row.sku));
    const blockedCalls = platform.calls.length - rows.length;
    expect(result.retries).toBe(blockedCalls);
  });

  it("waits exactly what the platform's Retry-After says instead of guessing", async () => {
    for (const blockedAsBody of [false, true]) {
      const platform = fakePlatform({ limitPerMinute: 10, sendRetryAfter: true, blockedAsBody });
      const { results } = await applyPriceRows(rowsOf(15), { ...platform.base, maxWaitMs: 600_000 });
      expect(results.map((r) => r.outcome)).toEqual(Array(15).fill("applied"));
      // One wait, to the end of the minute window, and no blocked request after it.
      expect(platform.sleeps).toHaveLength(1);
      expect(platform.sleeps[0]).toBeGreaterThan(59_000);
      expect(platform.calls).toHaveLength(16);
    }
  });

  it("reads statusCode -2 in a body like a 429", async () => {
    const platform = fakePlatform({ limitPerMinute: 3, blockedAsBody: true });
    const rows = rowsOf(6);
    const result = await applyPriceRows(rows, { ...platform.base });
    expectOneOutcomePerRow(rows, result.results);
    expect(result.results.every((r) => r.outcome === "applied")).toBe(true);
    expect(result.slowDowns).toBeGreaterThan(0);
  });

  it("retries transient failures, then records failed after the limit", async () => {
    const platform = fakePlatform({ transient: { "SKU-2": 2, "SKU-3": 99 } });
    const rows = rowsOf(4);
    const result = await applyPriceRows(rows, { ...platform.base, maxTransientFailures: 3 });
    expectOneOutcomePerRow(rows, result.results);
    const byLine = new Map(result.results.map((r) => [r.row.line, r]));
    expect(byLine.get(3)).toMatchObject({ outcome: "applied" });
    expect(byLine.get(4)).toMatchObject({
      outcome: "failed",
      reason: { code: "gaveUp", cause: "The marketplace answered HTTP 500", attempts: 4 },
    });
    expect(reasonOf(byLine.get(4))).toBe("The marketplace answered HTTP 500 (after 4 attempts)");
    expect(platform.calls.filter((call) => call.sku === "SKU-3")).toHaveLength(4);
    expect(platform.calls.filter((call) => call.sku === "SKU-2")).toHaveLength(3);
  });

  it("records a rejected row with the platform's message and errors, and goes on", async () => {
    const platform = fakePlatform({ reject: ["SKU-2"] });
    const rows = rowsOf(3);
    const result = await applyPriceRows(rows, { ...platform.base });
    const rejected = result.results.find((r) => r.row.line === 3);
    expect(rejected).toMatchObject({
      outcome: "rejected",
      statusCode: -4,
      errors: [{ field: "sku", message: "no SKU with this code" }],
      message: "A price had problems on import: sku: no SKU with this code",
    });
    expect(platform.calls.filter((call) => call.sku === "SKU-2")).toHaveLength(1);
    expect(result.results.filter((r) => r.outcome === "applied")).toHaveLength(2);
  });

  it("reads a bare 404 / 400 as rejected without retrying", async () => {
    const rows = rowsOf(1);
    let calls = 0;
    const result = await applyPriceRows(rows, {
      createPrice: async () => {
        calls++;
        throw new MarketplaceError("not_found", "Not found", { status: 404 });
      },
    });
    expect(calls).toBe(1);
    expect(result.results[0]).toMatchObject({ outcome: "rejected", message: "Not found" });
  });

  it("stops at the deadline and resumes where it stopped, keeping the backoff", async () => {
    const platform = fakePlatform({ limitPerMinute: 10 });
    const rows = rowsOf(30);
    const first = await applyPriceRows(rows, { ...platform.base, maxWaitMs: 5_000 });
    expect(first.stoppedBy).toBe("deadline");
    expect(first.results).toHaveLength(10);
    expect(first.pending.map((row) => row.line)).toEqual(rows.slice(10).map((row) => row.line));
    expect(first.resumeAfterMs).toBeGreaterThan(0);
    expect(first.backoff.rateLimitStreak).toBeGreaterThan(0);

    const all = [...first.results];
    let pending = first.pending;
    let backoff = first.backoff;
    for (let round = 0; pending.length > 0 && round < 50; round++) {
      const next = await applyPriceRows(pending, { ...platform.base, maxWaitMs: 5_000, backoff });
      all.push(...next.results);
      pending = next.pending;
      backoff = next.backoff;
      // The caller honours resumeAfterMs (the bulk page waits in the browser).
      platform.advance(next.resumeAfterMs);
    }
    expect(pending).toEqual([]);
    expectOneOutcomePerRow(rows, all);
    expect([...platform.prices.keys()]).toEqual(rows.map((row) => row.sku));
  });

  it("hands a long wait back instead of sleeping it", async () => {
    const platform = fakePlatform({ limitPerMinute: 2 });
    const rows = rowsOf(5);
    const result = await applyPriceRows(rows, { ...platform.base, handBackWaitsOverMs: 1_000, maxWaitMs: 20_000 });
    expect(result.stoppedBy).toBe("handed_back");
    expect(result.results).toHaveLength(2);
    expect(result.pending.map((row) => row.line)).toEqual([4, 5, 6]);
    // Streak 1 (750 ms) was slept, streak 2 (1500 ms) was handed back.
    expect(platform.sleeps).toEqual([750]);
    expect(result.resumeAfterMs).toBe(1500);
  });

  it("keeps a row's transient failures across calls so it still ends as failed", async () => {
    const platform = fakePlatform({ transient: { "SKU-1": 99 } });
    const rows = rowsOf(1);
    // The first retry wait (375 ms with this jitter) does not fit a 200 ms budget.
    const first = await applyPriceRows(rows, { ...platform.base, maxWaitMs: 200 });
    expect(first.pending).toEqual([{ ...rows[0], transientFailures: 1 }]);
    const second = await applyPriceRows(first.pending, { ...platform.base, maxTransientFailures: 2 });
    expect(second.results[0]).toMatchObject({ outcome: "failed", reason: { code: "gaveUp", attempts: 3 } });
    expect(reasonOf(second.results[0])).toContain("after 3 attempts");
    expect(platform.calls).toHaveLength(3);
  });

  it("rethrows 401 after reporting the rows already done, and sends nothing more", async () => {
    const rows = rowsOf(4);
    const seen: number[] = [];
    let calls = 0;
    const promise = applyPriceRows(rows, {
      createPrice: async (row) => {
        calls++;
        if (row.line === 4) throw new MarketplaceError("unauthorized", "invalid token", { status: 401 });
        return { token: "t", id: "a".repeat(24), statusCode: 0, statusMessage: "ok", errors: [], data: null };
      },
      onResult: (result) => seen.push(result.row.line),
    });
    await expect(promise).rejects.toMatchObject({ kind: "unauthorized" });
    expect(seen).toEqual([2, 3]);
    expect(calls).toBe(3);
  });

  it("with concurrency, one block pauses every worker once and still records one outcome per row", async () => {
    const platform = fakePlatform({ limitPerMinute: 7 });
    const rows = rowsOf(20);
    const result = await applyPriceRows(rows, { ...platform.base, concurrency: 3 });
    expectOneOutcomePerRow(rows, result.results);
    expect(platform.prices.size).toBe(20);
    expect(result.results.every((r) => r.outcome === "applied")).toBe(true);
  });

  it("fails a success without a price id, in the seller's language", () => {
    const attempt = classifyCreatePrice({ token: "t", id: null, statusCode: 0, statusMessage: "ok", errors: [], data: null });
    expect(attempt).toEqual({ kind: "final", outcome: { outcome: "failed", reason: { code: "noPriceId" } } });
    expect(worded({ code: "noPriceId" })).toBe("The marketplace reported success without a price id");
    expect(worded({ code: "gaveUp", cause: "Unexpected error (statusCode -1)", attempts: 4 }, "pt-BR")).toBe(
      "Unexpected error (statusCode -1) (após 4 tentativas)",
    );
  });

  it("ends a row the check holds without sending it, and sends the others", async () => {
    const platform = fakePlatform();
    const rows = rowsOf(4);
    const held: HeldOutcome = { outcome: "held", reasons: [{ code: "belowCost", type: "sell", cost: 5000 }] };
    const result = await applyPriceRows<Row, HeldOutcome>(rows, {
      ...platform.base,
      check: async (row) => (row.sku === "SKU-2" || row.sku === "SKU-4" ? held : null),
    });
    expect(platform.calls.map((call) => call.sku)).toEqual(["SKU-1", "SKU-3"]);
    expect(result.results.map((r) => [r.row.sku, r.outcome])).toEqual([
      ["SKU-1", "applied"],
      ["SKU-2", "held"],
      ["SKU-3", "applied"],
      ["SKU-4", "held"],
    ]);
    expect(platform.prices.has("SKU-2")).toBe(false);
  });

  it("takes a check that the platform blocks as a block: waits, asks again, and sends nothing unchecked", async () => {
    const platform = fakePlatform();
    let checks = 0;
    const result = await applyPriceRows<Row, HeldOutcome>(rowsOf(2), {
      ...platform.base,
      check: async () => {
        checks++;
        if (checks === 1) throw new MarketplaceError("rate_limited", "Too many requests", { status: 429, retryAfterMs: 2_000 });
        return null;
      },
    });
    expect(result.slowDowns).toBe(1);
    expect(platform.sleeps).toEqual([2_000]);
    expect(checks).toBe(3);
    expect(platform.calls.map((call) => call.sku)).toEqual(["SKU-1", "SKU-2"]);
    expect(result.results.every((r) => r.outcome === "applied")).toBe(true);
  });
});
