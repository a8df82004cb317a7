// Fault injection (control API `POST /_sandbox/faults`): lets an integrator rehearse failures the
// real platform can produce without waiting for them.
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { importErrorSchema } from "@marketplace/api/schemas/sku";
import type { ImportError } from "@marketplace/api/schemas/sku";

const userFaultSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  retryAfterSeconds: z.number().int().min(1).max(3_600).optional(),
});
export type UserFault = z.infer<typeof userFaultSchema>;

export const faultsPatchSchema = z.strictObject({
  /** Share (0..1) of authorised API calls answered with HTTP 500; 1 = every call. */
  errorRate: z.number().min(0).max(1).optional(),
  /** Delay added before every `/v1.0/` call (token exchange included). */
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  /** SKU import disabled: SKU create answers statusCode -5 with HTTP 503. */
  importDown: z.boolean().optional(),
  /** A valid SKU refused with statusCode -4 and these errors, as the platform's own later rules may. */
  rejectSkus: z.array(importErrorSchema).min(1).max(50).nullable().optional(),
  /** API calls per user per minute of sandbox time; above it: HTTP 429 (+ statusCode -2 on SKU create). null = no limit. */
  rateLimitPerMinute: z.number().int().positive().nullable().optional(),
  /** Every webhook is delivered twice: byte-identical bodies, signed alike (the spec gives a receiver nothing else to tell them apart by). */
  duplicateWebhooks: z.boolean().optional(),
  /** Share (0..1) of webhook deliveries never sent (logged as `dropped`); 1 = every delivery. */
  dropWebhookRate: z.number().min(0).max(1).optional(),
  /** Deliveries due in the same dispatcher tick start in random order instead of enqueue order. */
  reorderWebhooks: z.boolean().optional(),
  /** Maintenance: the authorization request redirects with `temporarily_unavailable`; API calls answer 503. */
  maintenance: z.boolean().optional(),
  /** Faults for some users only, by e-mail: one slow or rate-limited shop among many. */
  userFaults: z
    .record(z.email().max(254), userFaultSchema)
    .refine((map) => Object.keys(map).length <= 1_000, "at most 1,000 users")
    .nullable()
    .optional(),
  /** Deliveries whose label answers HTTP 503, as a carrier's label server failing for some parcels. */
  failLabels: z.array(objectIdSchema).max(1_000, "at most 1,000 deliveries").nullable().optional(),
  /** Delay before every label answer, to rehearse a slow label server. */
  labelLatencyMs: z.number().int().min(0).max(60_000).optional(),
  /** Bytes added to every label PDF (on its page, so a merge carries them), to rehearse heavy labels such as a carrier's with pictures. */
  labelPaddingBytes: z
    .number()
    .int()
    .min(0)
    .max(16 * 1024 * 1024)
    .optional(),
});
export type FaultsPatch = z.infer<typeof faultsPatchSchema>;

export interface Faults {
  errorRate: number;
  latencyMs: number;
  importDown: boolean;
  rejectSkus: ImportError[] | null;
  rateLimitPerMinute: number | null;
  duplicateWebhooks: boolean;
  dropWebhookRate: number;
  reorderWebhooks: boolean;
  maintenance: boolean;
  userFaults: Record<string, UserFault>;
  failLabels: string[];
  labelLatencyMs: number;
}

export const NO_FAULTS: Readonly<Faults> = {
  errorRate: 0,
  latencyMs: 0,
  importDown: false,
  rejectSkus: null,
  rateLimitPerMinute: null,
  duplicateWebhooks: false,
  dropWebhookRate: 0,
  reorderWebhooks: false,
  maintenance: false,
  userFaults: {},
  failLabels: [],
  labelLatencyMs: 0,
};

/**
 * Faults set and cleared through the control API only, absent until set: the console's faults page
 * lists and sets the keys of `Faults`, and has no field for these.
 */
export interface ApiOnlyFaults {
  labelPaddingBytes?: number;
}

/** A rate of 0 never hits and 1 always does, so tests are deterministic at the ends. */
export function rateHits(rate: number, draw: () => number): boolean {
  return rate >= 1 || (rate > 0 && draw() < rate);
}

export class FaultState {
  current: Faults & ApiOnlyFaults = { ...NO_FAULTS };
  private readonly windows = new Map<string, { windowStart: number; count: number }>();

  /** Merges a patch: fields left out keep their value. */
  apply(patch: FaultsPatch): Faults {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (key === "userFaults") this.current.userFaults = normaliseUserFaults(patch.userFaults ?? null);
      else if (key === "failLabels") this.current.failLabels = [...new Set(patch.failLabels ?? [])];
      else (this.current as unknown as Record<string, unknown>)[key] = value;
    }
    this.windows.clear();
    return this.current;
  }

  clear(): void {
    this.current = { ...NO_FAULTS };
    this.windows.clear();
  }

  /** The faults set for this user (e-mails are compared in lower case), if any. */
  userFault(email: string): UserFault | undefined {
    return this.current.userFaults[email.trim().toLowerCase()];
  }

  /** Bytes to add to every label (fault `labelPaddingBytes`). */
  labelPadding(): number {
    return this.current.labelPaddingBytes ?? 0;
  }

  /** Whether this delivery's label is to fail (fault `failLabels`). */
  labelFails(deliveryId: string): boolean {
    return this.current.failLabels.includes(deliveryId);
  }

  injectServerError(): boolean {
    return rateHits(this.current.errorRate, Math.random);
  }

  /**
   * Fixed one-minute windows per user, in sandbox time. Returns the seconds until the window
   * ends when the call is over the limit, null when it may proceed.
   */
  takeRateLimitToken(userId: string, now: number): number | null {
    const limit = this.current.rateLimitPerMinute;
    if (limit === null) return null;
    let window = this.windows.get(userId);
    if (!window || now - window.windowStart >= 60_000) {
      window = { windowStart: now, count: 0 };
      this.windows.set(userId, window);
    }
    window.count++;
    if (window.count <= limit) return null;
    return Math.max(1, Math.ceil((window.windowStart + 60_000 - now) / 1000));
  }
}

function normaliseUserFaults(map: Record<string, UserFault> | null): Record<string, UserFault> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([email, fault]) => [email.trim().toLowerCase(), fault]));
}
