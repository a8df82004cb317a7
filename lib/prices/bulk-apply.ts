// Sends bulk price rows to the platform (spec: Endpoint 5, Create price) one request per row, and
// records exactly one final outcome per row. Independent of Next and of the HTTP client: the
// caller passes `createPrice`, so the server action, the benchmark and the unit tests share it.
//
// Why rows go one at a time by default: the platform blocks "a user who sends too many" requests
// (spec: Limits; statusCode -2 "The request was blocked"), per user, with no published rate. A
// request in flight when the block starts is wasted, so parallel requests only buy more 429s.
// `concurrency` exists for a platform with high latency; all workers share one gate, so a block
// seen by one pauses all of them.
import { MarketplaceError } from "@/lib/marketplace/errors";
import { PRICE_STATUS } from "@/lib/marketplace/schemas/price";
import type { PriceCreateResponse } from "@/lib/marketplace/schemas/price";
import type { ImportError } from "@/lib/marketplace/schemas/sku";
import { verbatim } from "./bulk-messages";
import type { BulkMessage } from "./bulk-messages";
import type { GuardReason } from "./price-guard";

/** What the applier needs of a row; callers may carry more fields, which come back untouched. */
export interface ApplicableRow {
  line: number;
  /**
   * Transient failures already spent on this row in earlier calls (set by the applier on the
   * rows it hands back), so a row that keeps failing ends as `failed` even across resumptions.
   */
  transientFailures?: number;
}

/**
 * `message` of applied and rejected rows is the platform's own (statusMessage, errors[].message);
 * a failed row's `reason` is a code (./bulk-messages.ts), worded by whoever shows it.
 */
export type RowOutcome =
  | { outcome: "applied"; priceId: string; message: string }
  | { outcome: "rejected"; message: string; errors: ImportError[]; statusCode: number | null }
  | { outcome: "failed"; reason: BulkMessage };

/** Not sent: the price guard holds it and the seller did not confirm it (./price-guard.ts). */
export type HeldOutcome = { outcome: "held"; reasons: GuardReason[] };

/** `H`: the outcome a caller's `check` may end a row with (none by default). */
export type RowResult<R extends ApplicableRow, H = never> = (RowOutcome | H) & { row: R };

/** Carried from one call to the next, so a resumed run keeps its pace. */
export interface BackoffState {
  /** Consecutive rate-limit blocks without a success in between. */
  rateLimitStreak: number;
}

export interface SlowDownEvent {
  line: number;
  waitMs: number;
  reason: "rate_limited" | "transient";
  /** rate_limited: the streak; transient: the row's failures so far. */
  attempt: number;
}

export interface ApplyPriceRowsOptions<R extends ApplicableRow, H = never> {
  /** One create-price call; resolves with the import response (any statusCode) or throws. */
  createPrice: (row: R) => Promise<PriceCreateResponse & { retryAfterMs?: number }>;
  /**
   * Asked before each attempt at a row: a final outcome (the price guard holding it) ends the row
   * without sending it. It may read the platform: a failure it throws is taken as createPrice's
   * would be (a block waits and asks again, a 401 stops the run).
   */
  check?: (row: R) => Promise<H | null>;
  /** Called once per row when its outcome is final. */
  onResult?: (result: RowResult<R, H>) => void;
  /** Called before each wait caused by a block or a transient failure. */
  onSlowDown?: (event: SlowDownEvent) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** In [0, 1): the jitter source. */
  random?: () => number;
  /**
   * The time budget of this call. No request starts and no wait is taken past it; the rows not
   * done come back in `pending`. A request already in flight at the deadline is waited for
   * (bounded by the HTTP client's own timeout). Default: no deadline.
   */
  maxWaitMs?: number;
  /**
   * A rate-limit wait longer than this is not slept here but handed back (`resumeAfterMs`), so a
   * caller with a person watching (the bulk page) can show the countdown and send the rest later.
   * Default: every wait within `maxWaitMs` is slept here.
   */
  handBackWaitsOverMs?: number;
  /** Rows in flight at once. Default 1 (see the module comment). */
  concurrency?: number;
  /** Transient failures (5xx, network, -1, -5) per row before it is `failed`. Default 3. */
  maxTransientFailures?: number;
  /** First rate-limit wait; doubles per consecutive block up to `maxBackoffMs`. Default 1 s. */
  baseBackoffMs?: number;
  /**
   * Default 16 s. The platform's window is not published; against a fixed one-minute window
   * (the sandbox's) waits of 1, 2, 4, 8, 16, 16… s reach the next window at most 16 s late while
   * sending about one probe per 16 s while blocked.
   */
  maxBackoffMs?: number;
  /** First wait after a transient failure; doubles per failure. Default 500 ms. */
  baseRetryMs?: number;
  /** Where a resumed run starts its backoff (from the previous call's `backoff`). */
  backoff?: BackoffState;
}

export interface ApplyPriceRowsResult<R extends ApplicableRow, H = never> {
  /** Final outcomes of this call, in completion order; exactly one per finished row. */
  results: RowResult<R, H>[];
  /** Rows not done, in input order, to pass to the next call. */
  pending: R[];
  /** "done": every row has an outcome; "deadline": `maxWaitMs` ran out; "handed_back": a long wait was handed back. */
  stoppedBy: "done" | "deadline" | "handed_back";
  /** How long to wait before sending `pending` (0 when there is no reason to wait). */
  resumeAfterMs: number;
  backoff: BackoffState;
  /** Times the run slowed down because the platform blocked it. */
  slowDowns: number;
  /** Requests repeated after a block or a transient failure. */
  retries: number;
}

/** How one create-price call ended, as far as the applier cares. */
export type CreatePriceAttempt =
  | { kind: "final"; outcome: RowOutcome }
  | { kind: "rate_limited"; retryAfterMs?: number }
  | { kind: "transient"; message: string }
  | { kind: "fatal"; error: unknown };

/**
 * Reads one create-price answer. The spec defines success only (statusCode 0) and, by analogy
 * with the SKU import codes, -2 for "blocked"; the adapter answers other import responses and
 * throws a MarketplaceError for bare HTTP failures.
 */
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
    // Token trouble affects every row: stop and let the caller renew the connection.
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

/**
 * `baseMs` doubled for each step after the first (1, 2, 4… × `baseMs`), at most `maxMs`: the
 * growth of this engine's waits, and of the bulk page's retries of a call that got no answer.
 */
export function doublingDelayMs(step: number, baseMs: number, maxMs = Number.POSITIVE_INFINITY): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, step - 1));
}

/**
 * Applies `rows` in order and reports each final outcome through `onResult` and in `results`.
 *
 * - Blocked (statusCode -2, HTTP 429, MarketplaceError "rate_limited"): every worker pauses
 *   (exponential backoff with "equal jitter": half the step fixed, half random) and the same row
 *   is sent again; nothing is skipped. A success resets the streak.
 * - Transient (5xx, network failure or timeout, statusCode -1/-5): the row is retried after a
 *   short doubling wait, up to `maxTransientFailures`, then recorded as `failed`. Repeating a
 *   create whose answer was lost is harmless: a price is set, not added (spec: "creating a new
 *   price for the same SKU updates it"); at worst the history gains an identical point.
 * - Rejected by the platform (other statusCodes, 400, 404): recorded with its message and errors.
 * - 401 / 403: rethrown at once (after the outcomes already reported), as nothing else can
 *   succeed with that token; the caller's own bookkeeping (withPlatform) handles it.
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
  // The shared gate: no request starts before `gateUntil`. `gateEpoch` changes whenever a block
  // moves the gate, so a 429 of a request sent before that move does not double the wait again.
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

  /** Sleeps `waitMs` unless that would cross the deadline or the hand-back limit. */
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

  /** `done` when the row got its outcome; otherwise the row (failure count updated) stays pending. */
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
        // Not sent, so it says nothing of the platform's block.
        const result = { ...attempt.outcome, row } as RowResult<R, H>;
        results.push(result);
        options.onResult?.(result);
        return { done: true };
      }
      if (attempt.kind === "final") {
        // Any answer the platform processed (applied or rejected) means the block is over.
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
          // The platform's own Retry-After beats a guess; without it, back off exponentially.
          const waitMs = attempt.retryAfterMs !== undefined ? Math.max(attempt.retryAfterMs, 100) : backoffFor(streak, baseBackoffMs);
          gateUntil = now() + waitMs;
          gateEpoch++;
          options.onSlowDown?.({ line: row.line, waitMs, reason: "rate_limited", attempt: streak });
        }
        continue;
      }
      // Transient.
      failures++;
      if (failures > maxTransientFailures) {
        const result = { outcome: "failed", reason: { code: "gaveUp", cause: attempt.message, attempts: failures }, row } as RowResult<R, H>;
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

  async function worker(): Promise<void> {
    while (!stopped()) {
      const index = nextIndex++;
      const row = rows[index];
      if (row === undefined) return;
      const processed = await processRow(row);
      if (!processed.done) pendingByIndex.set(index, processed.row);
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, rows.length)) }, () => worker()));
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
