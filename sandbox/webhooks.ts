// Webhook notifications (spec: Events). Each event becomes one delivery per subscribed integrator
// application; a delivery is POSTed asynchronously with a 5 s timeout and retried with
// exponential backoff on a non-2xx answer, a timeout or a network error:
//
//   attempt 1 at once, then retries 2 s, 4 s, 8 s, 16 s and 32 s after each failure
//   (6 attempts over about a minute), then the delivery is marked `failed`.
//
// Retry times are sandbox-clock times, so `POST /_sandbox/clock` makes a pending retry due at once;
// a real timer polls at most every 200 ms, so retries also happen in real time.
//
// The delivery faults (`duplicateWebhooks`, `dropWebhookRate`, `reorderWebhooks`) are applied here,
// with a seeded random source: the same SANDBOX_SEED drops and reorders the same deliveries.
import { createHmac } from "node:crypto";
import type { WebhookData } from "@/lib/marketplace/schemas/webhook";
import { WEBHOOK_SIGNATURE_HEADER } from "@/lib/marketplace/schemas/webhook";
import type { SandboxClock } from "./clock";
import type { SandboxContext } from "./context";
import { rateHits, type FaultState } from "./faults";
import { createObjectIdFactory, SeededRandom } from "./random";

/** Base64(HMAC-SHA256(body, access token)) over the exact body bytes sent (spec: Events → Signature). */
export function signWebhookBody(body: string, accessToken: string): string {
  return createHmac("sha256", accessToken).update(body, "utf8").digest("base64");
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  /** Shared by the copies of one event (fault `duplicateWebhooks`); also sent as `X-SVC-Event-Id`. */
  eventId: string;
  clientId: string;
  userId: string;
  url: string;
  body: string;
  signature: string;
  domain: string;
  status: string;
  createdAt: string;
  /** `dropped`: never sent (fault `dropWebhookRate`), so it has no attempts. */
  state: "pending" | "delivering" | "delivered" | "failed" | "dropped";
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
}

/** One callback URL an event of `userId` goes to, the token that signs it and that token's scopes. */
export interface WebhookTarget {
  clientId: string;
  userId: string;
  url: string;
  signingToken: string;
  scopes: readonly string[];
}

export interface DispatcherOptions {
  clock: SandboxClock;
  faults: FaultState;
  /** Seeds the random source of the faults `dropWebhookRate` and `reorderWebhooks`. */
  seed: number;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  fetch?: typeof fetch;
  pollMs?: number;
}

export class WebhookDispatcher {
  private deliveries: WebhookDelivery[] = [];
  private readonly dueAt = new Map<string, number>();
  private readonly inFlight = new Set<{ controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private readonly newId = createObjectIdFactory();
  private readonly fetchImpl: typeof fetch;
  private readonly pollMs: number;
  private random: SeededRandom;

  constructor(private readonly options: DispatcherOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.pollMs = options.pollMs ?? 200;
    this.random = new SeededRandom(options.seed);
  }

  get maxAttempts(): number {
    return this.options.retryDelaysMs.length + 1;
  }

  enqueue(target: WebhookTarget, data: WebhookData): WebhookDelivery[] {
    const faults = this.options.faults.current;
    const body = JSON.stringify({ data });
    const signature = signWebhookBody(body, target.signingToken);
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
        signature,
        domain: data.domain,
        status: data.status,
        createdAt: new Date(now).toISOString(),
        state: dropped ? "dropped" : "pending",
        attempts: [],
        nextAttemptAt: dropped ? null : new Date(now).toISOString(),
      };
      this.deliveries.push(delivery);
      if (!dropped) this.dueAt.set(delivery.id, now);
      created.push(delivery);
    }
    this.kick();
    return created;
  }

  list(): readonly WebhookDelivery[] {
    return this.deliveries;
  }

  clear(): void {
    this.deliveries = [];
    this.dueAt.clear();
    this.random = new SeededRandom(this.options.seed);
  }

  start(): void {
    this.running = true;
    this.kick();
  }

  /** Stops the worker and aborts attempts in flight; resolves once they have settled. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = [...this.inFlight];
    for (const entry of pending) entry.controller.abort(new Error("sandbox stopping"));
    await Promise.allSettled(pending.map((entry) => entry.done));
  }

  /** Re-plans the next tick (after an enqueue or a clock change). */
  kick(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dueAt.size === 0) return;
    let soonest = Number.POSITIVE_INFINITY;
    for (const due of this.dueAt.values()) soonest = Math.min(soonest, due);
    const delay = Math.max(0, Math.min(this.pollMs, soonest - this.options.clock.now()));
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (!this.running) return;
    const now = this.options.clock.now();
    const burst = this.deliveries.filter((delivery) => {
      const due = this.dueAt.get(delivery.id);
      return due !== undefined && due <= now && delivery.state === "pending";
    });
    // Attempts start in this order; a receiver must not rely on it (fault `reorderWebhooks`).
    if (this.options.faults.current.reorderWebhooks) this.random.shuffle(burst);
    for (const delivery of burst) {
      this.dueAt.delete(delivery.id);
      this.attempt(delivery);
    }
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
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("timeout"));
    }, this.options.timeoutMs);
    const run = async (): Promise<void> => {
      let responseStatus: number | null = null;
      let error: string | null = null;
      try {
        const response = await this.fetchImpl(delivery.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json;charset=UTF-8",
            "User-Agent": "marketplace-sandbox-webhooks/1.0",
            [WEBHOOK_SIGNATURE_HEADER]: delivery.signature,
            "X-SVC-Event-Id": delivery.eventId,
            "X-SVC-Delivery-Attempt": String(number),
          },
          body: delivery.body,
          redirect: "manual",
          signal: controller.signal,
        });
        // The timeout covers reading the answer too.
        await response.arrayBuffer();
        responseStatus = response.status;
      } catch (cause) {
        error = timedOut
          ? `timed out after ${this.options.timeoutMs} ms`
          : cause instanceof Error
            ? `${cause.message}${cause.cause instanceof Error ? `: ${cause.cause.message}` : ""}`
            : String(cause);
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
      if (responseStatus !== null && responseStatus >= 200 && responseStatus < 300) {
        delivery.state = "delivered";
        return;
      }
      const delay = this.options.retryDelaysMs[number - 1];
      if (delay === undefined || !this.running) {
        delivery.state = this.running ? "failed" : "pending";
        return;
      }
      const next = this.options.clock.now() + delay;
      delivery.state = "pending";
      delivery.nextAttemptAt = new Date(next).toISOString();
      this.dueAt.set(delivery.id, next);
      this.kick();
    };
    const entry = { controller, done: Promise.resolve() };
    entry.done = run().finally(() => this.inFlight.delete(entry));
    this.inFlight.add(entry);
  }
}

/**
 * Topics per scope (spec: Events says the scopes chosen for the application decide the topics and
 * shows only portfolio:write → product created): portfolio.* needs portfolio:read or :write;
 * order.order needs order-order:read or :write; order.delivery and order.shipping need one of
 * those or order-delivery:read/:write.
 */
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

/**
 * Where events about `userId`'s data go: one target per application with a callback URL for them.
 * SANDBOX_CALLBACK_SCOPE=user: the user's own URLs, signed with the token that set each one.
 * `application`: every application URL, signed with the user's own latest active token for that
 * application (the spec keys the signature with "the integrator's access token" and an application
 * has one per user); a user without such a token gets nothing from that application.
 */
export function callbackTargets(ctx: SandboxContext, userId: string): WebhookTarget[] {
  const targets: WebhookTarget[] = [];
  for (const subscription of ctx.store.webhookSubscriptions.values()) {
    const signer =
      ctx.config.callbackScope === "application"
        ? ctx.store.latestActiveToken(subscription.clientId, userId, ctx.clock.now())
        : subscription.userId === userId
          ? { token: subscription.signingToken, scopes: subscription.scopes }
          : undefined;
    if (!signer) continue;
    targets.push({ clientId: subscription.clientId, userId, url: subscription.url, signingToken: signer.token, scopes: signer.scopes });
  }
  return targets;
}

/** Sends an event about `userId`'s data to every callback URL whose signing token's scopes subscribe to it. */
export function notifySeller(ctx: SandboxContext, userId: string, data: WebhookData): void {
  for (const target of callbackTargets(ctx, userId)) {
    if (subscriptionReceives(target.scopes, data.domain)) ctx.webhooks.enqueue(target, data);
  }
}
