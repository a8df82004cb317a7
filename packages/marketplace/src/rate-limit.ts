import { MarketplaceError } from "./errors";

export interface RateLimitRetryOptions {
  /** Calls in all, the first included. */
  attempts: number;
  /** A Retry-After longer than this is waited only this long. */
  maxWaitMs?: number;
  /** Waits; tests give their own. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Calls again while the platform answers 429 (or an import's statusCode -2), after the wait it
 * gave in Retry-After, else 2, 4, 8… s. For work that runs on its own (a sync, an export), never for
 * a person waiting on a click: a click should show the wait instead.
 */
export async function retryRateLimited<T>(call: () => Promise<T>, options: RateLimitRetryOptions): Promise<T> {
  const { attempts, maxWaitMs = 60_000, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof MarketplaceError) || error.kind !== "rate_limited" || attempt >= attempts) throw error;
      await sleep(Math.min(maxWaitMs, error.retryAfterMs ?? 1_000 * 2 ** attempt));
    }
  }
}
