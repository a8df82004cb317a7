// One request per row by default: the platform blocks per user with no published rate (spec:
// Limits), so parallel requests only buy more blocks. Lanes share one gate: a block pauses all.
import { MarketplaceError } from "@marketplace/api/errors";
import { PRICE_STATUS } from "@marketplace/api/schemas/price";
import type { PriceCreateResponse } from "@marketplace/api/schemas/price";
import type { ImportError } from "@marketplace/api/schemas/sku";
import { verbatim } from "./bulk-messages";
import type { BulkMessage } from "./bulk-messages";
import type { GuardReason } from "../guard/price-guard";

/** Other fields a caller's rows carry come back untouched. */
export interface ApplicableRow {
  line: number;
  /** Spent in earlier calls, so a row that keeps failing ends `failed` across resumptions. */
  transientFailures?: number;
}

/** `message` is the platform's own; a failed row's `reason` is a code, worded by whoever shows it. */
export type RowOutcome =
  | { outcome: "applied"; priceId: string; message: string }
  | { outcome: "rejected"; message: string; errors: ImportError[]; statusCode: number | null }
  | { outcome: "failed"; reason: BulkMessage };

/** Not sent: held by the price guard and not confirmed. */
export type HeldOutcome = { outcome: "held"; reasons: GuardReason[] };

/** Not sent: what the platform holds now makes the row pointless (an undo of a price changed since). */
export type SkippedOutcome = { outcome: "skipped"; reason: BulkMessage };

/** How the guarded path (features/prices/prices.server.ts) may end a row unsent. */
export type GuardedOutcome = HeldOutcome | SkippedOutcome;

/** `H`: the outcome a caller's `check` may end a row with. */
export type RowResult<R extends ApplicableRow, H = never> = (RowOutcome | H) & { row: R };

/** Carried from one call to the next, so a resumed run keeps its pace. */
export interface BackoffState {
  rateLimitStreak: number;
}

export interface SlowDownEvent {
  line: number;
  waitMs: number;
  reason: "rate_limited" | "transient";
  attempt: number;
}

export interface ApplyPriceRowsOptions<R extends ApplicableRow, H = never> {
  /** Resolves with the import response, whatever its statusCode, or throws. */
  createPrice: (row: R) => Promise<PriceCreateResponse & { retryAfterMs?: number }>;
  /**
   * Asked before each attempt: an outcome ends the row unsent. What it throws is taken as
   * createPrice's would be (a block waits, a 401 stops the run).
   */
  check?: (row: R) => Promise<H | null>;
  onResult?: (result: RowResult<R, H>) => void;
  onSlowDown?: (event: SlowDownEvent) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** No request starts and no wait is taken past it; unfinished rows come back in `pending`. */
  maxWaitMs?: number;
  /** A longer rate-limit wait is handed back (`resumeAfterMs`), so a watching page can count it down. */
  handBackWaitsOverMs?: number;
  concurrency?: number;
  /** Per row, before it is `failed`. Default 3. */
  maxTransientFailures?: number;
  /** Doubles per consecutive block up to `maxBackoffMs`. Default 1 s. */
  baseBackoffMs?: number;
  /** Default 16 s: at most that late for a window that reopened, with one probe per 16 s while blocked. */
  maxBackoffMs?: number;
  /** Doubles per failure. Default 500 ms. */
  baseRetryMs?: number;
  backoff?: BackoffState;
}

export interface ApplyPriceRowsResult<R extends ApplicableRow, H = never> {
  /** Exactly one per finished row, in completion order. */
  results: RowResult<R, H>[];
  /** In input order, for the next call. */
  pending: R[];
  stoppedBy: "done" | "deadline" | "handed_back";
  resumeAfterMs: number;
  backoff: BackoffState;
  slowDowns: number;
  retries: number;
}

export type CreatePriceAttempt =
  | { kind: "final"; outcome: RowOutcome }
  | { kind: "rate_limited"; retryAfterMs?: number }
  | { kind: "transient"; message: string }
  | { kind: "fatal"; error: unknown };

/** The spec defines only statusCode 0; -2 "blocked" is read by analogy with the SKU import codes. */
export function classifyCreatePrice(response: PriceCreateResponse & { retryAfterMs?: number }): CreatePriceAttempt {
  if (response.statusCode === PRICE_STATUS.imported.statusCode) {
    const id = response.id ?? response.data?.id;
    if (!id) return { kind: "final", outcome: { outcome: "failed", reason: { code: "noPriceId" } } };
    return { kind: "final", outcome: { outcome: "applied", priceId: id, message: response.statusMessage } };
  }
  if (response.statusCode === PRICE_STATUS.blocked.statusCode) return { kind: "rate_limited", retryAfterMs: response.retryAfterMs };
  // -1 "Unexpected error" and -5 "Import is down" (SKU table) are the platform's own trouble.
  if (response.statusCode === PRICE_STATUS.unexpected.statusCode || response.statusCode === -5) {
    return { kind: "transient", message: `${response.statusMessage} (statusCode ${response.statusCode})` };
  }
  const details = response.errors.map((error) => `${error.field}: ${error.message}`).join("; ");
  return {
    kind: "final",
    outcome: {
      outcome: "rejected",
      message: details ? `${response.statusMessage}: ${details}` : response.statusMessage,
      errors: response.errors,
      statusCode: response.statusCode,
    },
  };
}

function classifyError(error: unknown): CreatePriceAttempt {
  if (!(error instanceof MarketplaceError)) {
    return { kind: "final", outcome: { outcome: "failed", reason: verbatim(error instanceof Error ? error.message : String(error)) } };
  }
  switch (error.kind) {
    case "rate_limited":
      return { kind: "rate_limited", retryAfterMs: error.retryAfterMs };
    case "unavailable":
      return { kind: "transient", message: error.message };
    // Token trouble affects every row: stop.
    case "unauthorized":
    case "forbidden":
      return { kind: "fatal", error };
    case "bad_request":
    case "not_found":
      return { kind: "final", outcome: { outcome: "rejected", message: error.message, errors: [], statusCode: null } };
    case "invalid_response":
      return { kind: "final", outcome: { outcome: "failed", reason: verbatim(error.message) } };
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 1, 2, 4… × `baseMs`, at most `maxMs`: this engine's waits and the bulk page's retries alike. */
export function doublingDelayMs(step: number, baseMs: number, maxMs = Number.POSITIVE_INFINITY): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, step - 1));
}

/**
 * A block pauses every lane and resends the same row. Transient failures are retried: repeating
 * a create whose answer was lost is harmless, as a price is set, not added. 401/403 are rethrown.
 */
export async function applyPriceRows<R extends ApplicableRow, H extends { outcome: string } = never>(
  rows: readonly R[],
  options: ApplyPriceRowsOptions<R, H>,
): Promise<ApplyPriceRowsResult<R, H>> {
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const maxTransientFailures = options.maxTransientFailures ?? 3;
  const baseBackoffMs = options.baseBackoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 16_000;
  const baseRetryMs = options.baseRetryMs ?? 500;
  const deadline = options.maxWaitMs === undefined ? Number.POSITIVE_INFINITY : now() + options.maxWaitMs;
  const handBackOver = options.handBackWaitsOverMs ?? Number.POSITIVE_INFINITY;

  const results: RowResult<R, H>[] = [];
  const pendingByIndex = new Map<number, R>();
  let streak = options.backoff?.rateLimitStreak ?? 0;
  let slowDowns = 0;
  let retries = 0;
  let nextIndex = 0;
  let stoppedBy: ApplyPriceRowsResult<R, H>["stoppedBy"] = "done";
  let resumeAfterMs = 0;
  let fatal: { error: unknown } | null = null;
  // `gateEpoch` changes when a block moves the gate, so a 429 sent before the move does not double it again.
  let gateUntil = 0;
  let gateEpoch = 0;

  const stopped = () => stoppedBy !== "done" || fatal !== null;
  const stop = (reason: "deadline" | "handed_back", waitMs: number) => {
    if (stoppedBy === "done") stoppedBy = reason;
    resumeAfterMs = Math.max(resumeAfterMs, Math.ceil(waitMs));
  };

  function backoffFor(step: number, base: number): number {
    const ceiling = doublingDelayMs(step, base, maxBackoffMs);
    return Math.round(ceiling / 2 + random() * (ceiling / 2));
  }

  async function waitOrStop(waitMs: number, handBack: boolean): Promise<boolean> {
    if (waitMs <= 0) return true;
    if (handBack && waitMs > handBackOver) {
      stop("handed_back", waitMs);
      return false;
    }
    if (now() + waitMs > deadline) {
      stop("deadline", waitMs);
      return false;
    }
    await sleep(waitMs);
    return !stopped();
  }

  async function processRow(row: R): Promise<{ done: true } | { done: false; row: R }> {
    let failures = row.transientFailures ?? 0;
    for (;;) {
      const gateWait = gateUntil - now();
      if (gateWait > 0) {
        if (!(await waitOrStop(gateWait, true))) return { done: false, row };
        continue;
      }
      if (stopped()) return { done: false, row };
      if (now() >= deadline) {
        stop("deadline", 0);
        return { done: false, row };
      }

      const epoch = gateEpoch;
      let attempt: CreatePriceAttempt | { kind: "held"; outcome: H };
      try {
        const held = options.check ? await options.check(row) : null;
        attempt = held ? { kind: "held", outcome: held } : classifyCreatePrice(await options.createPrice(row));
      } catch (error) {
        attempt = classifyError(error);
      }

      if (attempt.kind === "held") {
        // Not sent, so it says nothing about the block.
        const result = { ...attempt.outcome, row } as RowResult<R, H>;
        results.push(result);
        options.onResult?.(result);
        return { done: true };
      }
      if (attempt.kind === "final") {
        // Any answer the platform processed means the block is over.
        if (attempt.outcome.outcome !== "failed") streak = 0;
        const result = { ...attempt.outcome, row } as RowResult<R, H>;
        results.push(result);
        options.onResult?.(result);
        return { done: true };
      }
      if (attempt.kind === "fatal") {
        fatal ??= { error: attempt.error };
        return { done: false, row };
      }
      if (attempt.kind === "rate_limited") {
        retries++;
        if (epoch === gateEpoch) {
          streak++;
          slowDowns++;
          const waitMs = attempt.retryAfterMs !== undefined ? Math.max(attempt.retryAfterMs, 100) : backoffFor(streak, baseBackoffMs);
          gateUntil = now() + waitMs;
          gateEpoch++;
          options.onSlowDown?.({ line: row.line, waitMs, reason: "rate_limited", attempt: streak });
        }
        continue;
      }
      failures++;
      if (failures > maxTransientFailures) {
        const result = { outcome: "failed", reason: { code: "gaveUp", cause: attempt.message, attempts: failures }, row } as RowResult<
          R,
          H
        >;
        results.push(result);
        options.onResult?.(result);
        return { done: true };
      }
      retries++;
      row = { ...row, transientFailures: failures };
      const waitMs = backoffFor(failures, baseRetryMs);
      options.onSlowDown?.({ line: row.line, waitMs, reason: "transient", attempt: failures });
      if (!(await waitOrStop(waitMs, false))) return { done: false, row };
    }
  }

  async function lane(): Promise<void> {
    while (!stopped()) {
      const index = nextIndex++;
      const row = rows[index];
      if (row === undefined) return;
      const processed = await processRow(row);
      if (!processed.done) pendingByIndex.set(index, processed.row);
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, rows.length)) }, () => lane()));
  if (fatal !== null) throw (fatal as { error: unknown }).error;

  for (let index = Math.min(nextIndex, rows.length); index < rows.length; index++) {
    const row = rows[index];
    if (row !== undefined) pendingByIndex.set(index, row);
  }
  const pending = [...pendingByIndex.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  if (pending.length === 0) {
    stoppedBy = "done";
    resumeAfterMs = 0;
  } else if (gateUntil > now()) {
    resumeAfterMs = Math.max(resumeAfterMs, Math.ceil(gateUntil - now()));
  }
  return { results, pending, stoppedBy, resumeAfterMs, backoff: { rateLimitStreak: streak }, slowDowns, retries };
}
