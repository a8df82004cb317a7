// Webhook deliveries (spec: Events; the rules are in sandbox/README.md, "Webhooks"). Every attempt
// is signed then, with the user's current token, so a token revoked since the event (RFC 6749
// §4.1.2) never signs again; headers are the spec's and no more, so receivers dedupe by body.
import type { WebhookData } from "@marketplace/api/schemas/webhook";
import { WEBHOOK_SIGNATURE_HEADER } from "@marketplace/api/schemas/webhook";
// One implementation of the spec's signature for both sides (the dashboard verifies with it).
import { signWebhookBody } from "@marketplace/api/signature";
import { CallbackRefusedError, type CallbackGuard } from "./callback-guard";
import type { SandboxClock } from "./clock";
import { DueQueue } from "./due-queue";
import { rateHits, type FaultState } from "./faults";
import { createObjectIdFactory, SeededRandom } from "./random";
import { fetchTransport, pinnedTransport, type WebhookTransport } from "./webhook-transport";

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  /** Shared by the copies of one event (fault `duplicateWebhooks`). In the log only: never sent (the spec has no such header). */
  eventId: string;
  clientId: string;
  userId: string;
  url: string;
  body: string;
  /** X-SVC-Signature of the latest attempt, made then with the user's current token; null before the first. */
  signature: string | null;
  domain: string;
  status: string;
  createdAt: string;
  /** `dropped`: never sent (fault `dropWebhookRate`), so it has no attempts. */
  state: "pending" | "delivering" | "delivered" | "failed" | "dropped";
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  /** Set on a copy made by `resend`: the id of the delivery it repeats. */
  resendOf?: string;
}

/** One callback URL an event of `userId` goes to, and the scopes of the user's current token for that application. */
export interface WebhookTarget {
  clientId: string;
  userId: string;
  url: string;
  scopes: readonly string[];
}

/** The access token that signs, at the moment of an attempt, what goes to `userId` through `clientId`; null when they hold none. */
export type SigningTokenLookup = (clientId: string, userId: string) => string | null;

/** Thrown when nothing may sign an attempt: it fails at once, like a refused address, and is not retried. */
class NoSigningTokenError extends Error {}

export interface DispatcherOptions {
  clock: SandboxClock;
  faults: FaultState;
  /** Checks (and resolves) the callback URL before every attempt. */
  guard: CallbackGuard;
  /** Asked before every attempt: the token to sign with (`currentSigningToken`). */
  signingToken: SigningTokenLookup;
  /** Seeds the random source of the faults `dropWebhookRate` and `reorderWebhooks`. */
  seed: number;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  /** Deliveries kept by `list()` (SANDBOX_DELIVERY_LOG_SIZE). */
  logSize: number;
  /** Attempts in flight at once (SANDBOX_DELIVERY_CONCURRENCY). */
  concurrency: number;
  /** Replaces the HTTP client (tests); the connection is then not pinned to the checked addresses. */
  fetch?: typeof fetch;
  pollMs?: number;
}

function describeError(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  return `${cause.message}${cause.cause instanceof Error ? `: ${cause.cause.message}` : ""}`;
}

/** `promise`, or a rejection as soon as `signal` aborts (a DNS lookup cannot be cancelled, only abandoned). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true })),
  ]);
}

export class WebhookDispatcher {
  /** The delivery log, oldest first (a Map keeps insertion order and forgets in O(1)). */
  private log = new Map<string, WebhookDelivery>();
  /** Ids of the logged deliveries that have finished, in the order they finished: the first to forget. */
  private finished = new Set<string>();
  /** Pending deliveries by due time. May hold forgotten ones, skipped when popped. */
  private readonly due = new DueQueue<WebhookDelivery>();
  private readonly inFlight = new Set<{ controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private readonly newId = createObjectIdFactory();
  private readonly transport: WebhookTransport;
  private readonly closeTransport: () => void;
  private readonly pollMs: number;
  private random: SeededRandom;

  constructor(private readonly options: DispatcherOptions) {
    if (options.fetch) {
      this.transport = fetchTransport(options.fetch);
      this.closeTransport = () => {};
    } else {
      const pinned = pinnedTransport();
      this.transport = pinned.send;
      this.closeTransport = pinned.close;
    }
    this.pollMs = options.pollMs ?? 200;
    this.random = new SeededRandom(options.seed);
  }

  get maxAttempts(): number {
    return this.options.retryDelaysMs.length + 1;
  }

  enqueue(target: WebhookTarget, data: WebhookData): WebhookDelivery[] {
    const faults = this.options.faults.current;
    const body = JSON.stringify({ data });
    const now = this.options.clock.now();
    const eventId = this.newId(now);
    const created: WebhookDelivery[] = [];
    for (let i = 0; i < (faults.duplicateWebhooks ? 2 : 1); i++) {
      // Decided per copy, so that a duplicated event may arrive once, twice or not at all.
      const dropped = rateHits(faults.dropWebhookRate, this.random.next);
      const delivery: WebhookDelivery = {
        id: this.newId(now),
        eventId,
        clientId: target.clientId,
        userId: target.userId,
        url: target.url,
        body,
        signature: null,
        domain: data.domain,
        status: data.status,
        createdAt: new Date(now).toISOString(),
        state: dropped ? "dropped" : "pending",
        attempts: [],
        nextAttemptAt: dropped ? null : new Date(now).toISOString(),
      };
      this.remember(delivery);
      if (dropped) this.finished.add(delivery.id);
      else this.due.push(now, delivery);
      created.push(delivery);
    }
    this.kick();
    return created;
  }

  /**
   * A new delivery of the same event, URL and body, attempted at once with a fresh retry schedule.
   * The faults are not drawn again: a resend someone asked for is always sent. Undefined when `id`
   * is not in the log.
   */
  resend(id: string): WebhookDelivery | undefined {
    const original = this.log.get(id);
    if (!original) return undefined;
    const now = this.options.clock.now();
    const at = new Date(now).toISOString();
    const copy: WebhookDelivery = {
      ...original,
      id: this.newId(now),
      resendOf: original.id,
      createdAt: at,
      state: "pending",
      signature: null,
      attempts: [],
      nextAttemptAt: at,
    };
    this.remember(copy);
    this.due.push(now, copy);
    this.kick();
    return copy;
  }

  /**
   * Resolves once no attempt is in flight and none is due by the sandbox's clock: everything that
   * was to be delivered by now has been tried, so a test can say what was not sent without waiting
   * a guessed while. Attempts held by a receiver that never answers keep it waiting.
   */
  async settled(): Promise<void> {
    for (;;) {
      const soonest = this.due.peekAt();
      const dueNow = this.running && soonest !== undefined && soonest <= this.options.clock.now();
      if (this.inFlight.size === 0 && !dueNow) return;
      await Promise.race([
        ...[...this.inFlight].map((entry) => entry.done.catch(() => undefined)),
        new Promise((resolve) => setTimeout(resolve, 5)),
      ]);
    }
  }

  /** Oldest first. */
  list(): readonly WebhookDelivery[] {
    return [...this.log.values()];
  }

  /** Forgets every delivery (reset); attempts in flight are aborted and their outcome ignored. */
  clear(): void {
    for (const entry of this.inFlight) entry.controller.abort(new Error("sandbox reset"));
    this.log = new Map();
    this.finished = new Set();
    this.due.clear();
    this.random = new SeededRandom(this.options.seed);
  }

  start(): void {
    this.running = true;
    this.kick();
  }

  /** Stops the dispatcher and aborts attempts in flight (they wait, pending, for `start`); resolves once they have settled. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = [...this.inFlight];
    for (const entry of pending) entry.controller.abort(new Error("sandbox stopping"));
    await Promise.allSettled(pending.map((entry) => entry.done));
    this.closeTransport();
  }

  /** Re-plans the next tick (after an enqueue, a finished attempt or a clock change). */
  kick(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const soonest = this.due.peekAt();
    // With every slot taken, the next attempt to finish kicks again.
    if (soonest === undefined || this.inFlight.size >= this.options.concurrency) return;
    const delay = Math.max(0, Math.min(this.pollMs, soonest - this.options.clock.now()));
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  /** A full log forgets what finished longest ago, else the oldest, so memory stays bounded whatever receivers do. */
  private remember(delivery: WebhookDelivery): void {
    this.log.set(delivery.id, delivery);
    while (this.log.size > this.options.logSize) {
      const oldest = this.finished.values().next().value ?? this.log.keys().next().value;
      if (oldest === undefined) return;
      this.log.delete(oldest);
      this.finished.delete(oldest);
    }
  }

  private isLogged(delivery: WebhookDelivery): boolean {
    return this.log.get(delivery.id) === delivery;
  }

  private tick(): void {
    this.timer = null;
    if (!this.running) return;
    const now = this.options.clock.now();
    const burst: WebhookDelivery[] = [];
    while (this.inFlight.size + burst.length < this.options.concurrency) {
      const delivery = this.due.popDue(now);
      if (!delivery) break;
      if (this.isLogged(delivery) && delivery.state === "pending") burst.push(delivery);
    }
    // Attempts start in this order; a receiver must not rely on it (fault `reorderWebhooks`).
    if (this.options.faults.current.reorderWebhooks) this.random.shuffle(burst);
    for (const delivery of burst) this.attempt(delivery);
    this.kick();
  }

  private attempt(delivery: WebhookDelivery): void {
    const controller = new AbortController();
    const number = delivery.attempts.length + 1;
    delivery.state = "delivering";
    delivery.nextAttemptAt = null;
    const startedAt = this.options.clock.now();
    const started = performance.now();
    let timedOut = false;
    // The timeout covers resolving the host, connecting, sending and reading the answer.
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("timeout"));
    }, this.options.timeoutMs);
    const run = async (): Promise<void> => {
      let responseStatus: number | null = null;
      let error: string | null = null;
      let refused = false;
      try {
        const token = this.options.signingToken(delivery.clientId, delivery.userId);
        if (token === null) {
          throw new NoSigningTokenError(
            "the user holds no active access token for this application (all revoked or expired): nothing may sign the notification, so it is not sent",
          );
        }
        const signature = signWebhookBody(delivery.body, token);
        delivery.signature = signature;
        const url = new URL(delivery.url);
        const addresses = await unlessAborted(this.options.guard.resolve(url), controller.signal);
        responseStatus = await this.transport({
          url,
          addresses,
          headers: {
            "Content-Type": "application/json;charset=UTF-8",
            "User-Agent": "marketplace-sandbox-webhooks/1.0",
            [WEBHOOK_SIGNATURE_HEADER]: signature,
          },
          body: delivery.body,
          signal: controller.signal,
        });
      } catch (cause) {
        // Neither a refused address nor a missing token gets better by waiting: no retry.
        refused = cause instanceof CallbackRefusedError || cause instanceof NoSigningTokenError;
        error =
          cause instanceof NoSigningTokenError
            ? `not signed: ${cause.message}`
            : cause instanceof CallbackRefusedError
              ? `callback URL refused: ${describeError(cause)}`
              : timedOut
                ? `timed out after ${this.options.timeoutMs} ms`
                : describeError(cause);
      } finally {
        clearTimeout(timeout);
      }
      delivery.attempts.push({
        attempt: number,
        startedAt: new Date(startedAt).toISOString(),
        durationMs: Math.round(performance.now() - started),
        responseStatus,
        error,
      });
      this.settle(delivery, number, responseStatus, refused);
    };
    const entry = { controller, done: Promise.resolve() };
    entry.done = run().finally(() => {
      this.inFlight.delete(entry);
      this.kick();
    });
    this.inFlight.add(entry);
  }

  /** What follows an attempt: done, a retry, or (stopped) waiting for `start`. A forgotten delivery is not rescheduled. */
  private settle(delivery: WebhookDelivery, number: number, responseStatus: number | null, refused: boolean): void {
    const now = this.options.clock.now();
    const delay = this.options.retryDelaysMs[number - 1];
    if (responseStatus !== null && responseStatus >= 200 && responseStatus < 300) delivery.state = "delivered";
    else if (refused || delay === undefined) delivery.state = "failed";
    else {
      const next = this.running ? now + delay : now;
      delivery.state = "pending";
      delivery.nextAttemptAt = new Date(next).toISOString();
      if (this.isLogged(delivery)) this.due.push(next, delivery);
      return;
    }
    if (this.isLogged(delivery)) this.finished.add(delivery.id);
  }
}

/** The spec says the application's scopes decide the topics but shows only portfolio:write → product created. */
const TOPIC_SCOPES: Record<string, readonly string[]> = {
  portfolio: ["portfolio:read", "portfolio:write"],
  "order.order": ["order-order:read", "order-order:write"],
  "order.delivery": ["order-order:read", "order-order:write", "order-delivery:read", "order-delivery:write"],
  "order.shipping": ["order-order:read", "order-order:write", "order-delivery:read", "order-delivery:write"],
};

export function subscriptionReceives(scopes: readonly string[], domain: string): boolean {
  const key = domain.startsWith("portfolio.") ? "portfolio" : domain;
  return (TOPIC_SCOPES[key] ?? []).some((scope) => scopes.includes(scope));
}
