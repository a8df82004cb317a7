import { afterEach, describe, expect, it, vi } from "vitest";
import { CallbackGuard, CallbackRefusedError, type HostLookup } from "./callback-guard";

const onLoopback = { allowLoopbackAndPrivate: true };
const exposed = { allowLoopbackAndPrivate: false };

function lookupOf(addresses: string[]): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("CallbackGuard.resolve (before every delivery attempt)", () => {
  it("returns the addresses a name resolves to when every one is allowed", async () => {
    const lookup = lookupOf(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]);
    const addresses = await new CallbackGuard(exposed, lookup).resolve(new URL("https://hooks.test/in"));
    expect(addresses.map((entry) => entry.address)).toEqual(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]);
    expect(lookup.calls).toEqual(["hooks.test"]);
  });

  it("refuses a name when any of its addresses is refused, naming it", async () => {
    const guard = new CallbackGuard(exposed, lookupOf(["93.184.215.14", "10.0.0.7"]));
    const refusal = guard.resolve(new URL("https://hooks.test/in"));
    await expect(refusal).rejects.toBeInstanceOf(CallbackRefusedError);
    await expect(refusal).rejects.toThrow("hooks.test resolves to 10.0.0.7, a private address");
  });

  it("checks an IP literal as it is, without DNS", async () => {
    const lookup = lookupOf(["93.184.215.14"]);
    const guard = new CallbackGuard(onLoopback, lookup);
    await expect(guard.resolve(new URL("http://[::ffff:169.254.169.254]/"))).rejects.toThrow(/::ffff:a9fe:a9fe is a link-local or cloud metadata address/);
    expect((await guard.resolve(new URL("http://127.0.0.1:3000/"))).map((entry) => entry.address)).toEqual(["127.0.0.1"]);
    expect(lookup.calls).toEqual([]);
  });

  it("lets a DNS failure through as it is (a network error, retried)", async () => {
    const failing: HostLookup = () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND hooks.test"), { code: "ENOTFOUND" }));
    const attempt = new CallbackGuard(exposed, failing).resolve(new URL("https://hooks.test/"));
    await expect(attempt).rejects.not.toBeInstanceOf(CallbackRefusedError);
    await expect(attempt).rejects.toThrow(/ENOTFOUND/);
  });
});

describe("CallbackGuard.refusal (when the URL is set)", () => {
  it("is null for an allowed URL, the reason for a refused one", async () => {
    expect(await new CallbackGuard(exposed, lookupOf(["93.184.215.14"])).refusal("https://hooks.test/")).toBeNull();
    expect(await new CallbackGuard(onLoopback, lookupOf(["169.254.169.254"])).refusal("https://hooks.test/")).toMatch(/169\.254\.169\.254/);
  });

  it("accepts a name that does not resolve now: every delivery checks it again", async () => {
    const failing: HostLookup = () => Promise.reject(new Error("getaddrinfo ENOTFOUND hooks.test"));
    expect(await new CallbackGuard(exposed, failing).refusal("https://hooks.test/")).toBeNull();
  });

  it("waits at most 2 s for DNS", async () => {
    vi.useFakeTimers();
    const never: HostLookup = () => new Promise(() => {});
    const answer = new CallbackGuard(exposed, never).refusal("https://slow.test/");
    await vi.advanceTimersByTimeAsync(2000);
    expect(await answer).toBeNull();
  });
});
