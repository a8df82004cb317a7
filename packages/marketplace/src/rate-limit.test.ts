import { describe, expect, it } from "vitest";
import { MarketplaceError } from "./errors";
import { retryRateLimited } from "./rate-limit";

const rateLimited = (retryAfterMs?: number) => new MarketplaceError("rate_limited", "Too many requests", { status: 429, retryAfterMs });

/** A call that fails with these errors in turn, then answers "done"; and the waits it was given. */
function scripted(failures: readonly Error[]) {
  const waits: number[] = [];
  let calls = 0;
  const call = async () => {
    calls++;
    const failure = failures[calls - 1];
    if (failure) throw failure;
    return "done";
  };
  const sleep = async (ms: number) => void waits.push(ms);
  return { call, sleep, waits, calls: () => calls };
}

describe("retryRateLimited", () => {
  it("waits what Retry-After says, then calls again", async () => {
    const script = scripted([rateLimited(1_500), rateLimited(3_000)]);
    await expect(retryRateLimited(script.call, { attempts: 3, sleep: script.sleep })).resolves.toBe("done");
    expect(script.waits).toEqual([1_500, 3_000]);
    expect(script.calls()).toBe(3);
  });

  it("without Retry-After waits 2, 4, 8… s", async () => {
    const script = scripted([rateLimited(), rateLimited(), rateLimited()]);
    await expect(retryRateLimited(script.call, { attempts: 4, sleep: script.sleep })).resolves.toBe("done");
    expect(script.waits).toEqual([2_000, 4_000, 8_000]);
  });

  it("never waits longer than maxWaitMs, whatever the platform asks", async () => {
    const script = scripted([rateLimited(3_600_000)]);
    await retryRateLimited(script.call, { attempts: 2, maxWaitMs: 5_000, sleep: script.sleep });
    expect(script.waits).toEqual([5_000]);
  });

  it("gives up after `attempts` calls in all, with the last rate limit", async () => {
    const script = scripted([rateLimited(10), rateLimited(20), rateLimited(30)]);
    await expect(retryRateLimited(script.call, { attempts: 3, sleep: script.sleep })).rejects.toMatchObject({
      kind: "rate_limited",
      retryAfterMs: 30,
    });
    expect(script.calls()).toBe(3);
    expect(script.waits).toEqual([10, 20]);
  });

  it("does not retry any other failure", async () => {
    const unavailable = new MarketplaceError("unavailable", "down", { status: 503 });
    const script = scripted([unavailable]);
    await expect(retryRateLimited(script.call, { attempts: 5, sleep: script.sleep })).rejects.toBe(unavailable);
    const plain = scripted([new TypeError("bug")]);
    await expect(retryRateLimited(plain.call, { attempts: 5, sleep: plain.sleep })).rejects.toThrow(TypeError);
    expect(script.calls() + plain.calls()).toBe(2);
  });
});
