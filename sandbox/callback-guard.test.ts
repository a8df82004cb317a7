import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALLBACK_URL_NOT_ALLOWED, CallbackGuard, CallbackRefusedError, type HostLookup } from "./callback-guard";

const onLoopback = { allowLoopbackAndPrivate: true };
const exposed = { allowLoopbackAndPrivate: false };

/** Collects what the guard tells the operator. */
function logLines(): ((line: string) => void) & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign((line: string) => void lines.push(line), { lines });
}

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

  it("refuses a name when any of its addresses is refused, saying only that it is not allowed; the log names the address", async () => {
    const log = logLines();
    const guard = new CallbackGuard(exposed, lookupOf(["93.184.215.14", "10.0.0.7"]), { log });
    const refusal = guard.resolve(new URL("https://hooks.test/in"));
    await expect(refusal).rejects.toBeInstanceOf(CallbackRefusedError);
    await expect(refusal).rejects.toThrow(CALLBACK_URL_NOT_ALLOWED);
    const error = (await refusal.catch((caught: unknown) => caught)) as CallbackRefusedError;
    expect(error.message).not.toMatch(/10\.0\.0\.7|resolves|private/);
    expect(error.detail).toMatch(/^hooks\.test resolves to 10\.0\.0\.7: private \(10\.0\.0\.0\/8/);
    expect(log.lines).toEqual([expect.stringContaining("hooks.test resolves to 10.0.0.7: private")]);
  });

  it("checks an IP literal as it is, without DNS", async () => {
    const lookup = lookupOf(["93.184.215.14"]);
    const log = logLines();
    const guard = new CallbackGuard(onLoopback, lookup, { log });
    await expect(guard.resolve(new URL("http://[::ffff:169.254.169.254]/"))).rejects.toThrow(CALLBACK_URL_NOT_ALLOWED);
    expect(log.lines).toEqual([expect.stringMatching(/::ffff:a9fe:a9fe: link-local .*never/)]);
    expect((await guard.resolve(new URL("http://127.0.0.1:3000/"))).map((entry) => entry.address)).toEqual(["127.0.0.1"]);
    expect(lookup.calls).toEqual([]);
  });

  it.each([
    ["documentation", "192.0.2.10"],
    ["benchmarking", "198.18.4.5"],
    ["multicast", "224.0.0.251"],
    ["reserved", "240.0.0.1"],
    ["documentation (IPv6)", "2001:db8::1"],
    ["6to4", "2002:7f00:1::1"],
    ["NAT64 of a metadata address", "64:ff9b::a9fe:a9fe"],
  ])("refuses a name resolving to a %s address in every mode (%s)", async (_kind, address) => {
    for (const policy of [onLoopback, exposed]) {
      const guard = new CallbackGuard(policy, lookupOf([address]), { log: logLines(), hostAddresses: () => [] });
      await expect(guard.resolve(new URL("https://hooks.test/"))).rejects.toBeInstanceOf(CallbackRefusedError);
    }
  });

  it("lets a DNS failure through as it is (a network error, retried)", async () => {
    const failing: HostLookup = () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND hooks.test"), { code: "ENOTFOUND" }));
    const attempt = new CallbackGuard(exposed, failing).resolve(new URL("https://hooks.test/"));
    await expect(attempt).rejects.not.toBeInstanceOf(CallbackRefusedError);
    await expect(attempt).rejects.toThrow(/ENOTFOUND/);
  });
});

describe("this host's own addresses", () => {
  /** Every address of this machine's interfaces but loopback ones (what a delivery to "the LAN IP of the sandbox's host" hits). */
  const ownAddresses = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => entry.address);

  it.runIf(ownAddresses.length > 0)("are refused when exposed, read from os.networkInterfaces() by default", async () => {
    for (const address of ownAddresses) {
      const guard = new CallbackGuard(exposed, lookupOf([address]), { log: logLines() });
      await expect(guard.resolve(new URL("https://hooks.test/")), address).rejects.toBeInstanceOf(CallbackRefusedError);
    }
  });

  it("are refused when exposed even when public, allowed on a loopback sandbox or with SANDBOX_ALLOW_PRIVATE_CALLBACKS", async () => {
    const hostAddresses = () => ["127.0.0.1", "93.184.215.14"];
    const log = logLines();
    const refusing = new CallbackGuard(exposed, lookupOf(["93.184.215.14"]), { hostAddresses, log });
    await expect(refusing.resolve(new URL("https://hooks.test/"))).rejects.toThrow(CALLBACK_URL_NOT_ALLOWED);
    await expect(refusing.resolve(new URL("http://[::ffff:5db8:d70e]/"))).rejects.toBeInstanceOf(CallbackRefusedError);
    expect(log.lines[0]).toContain("hooks.test resolves to 93.184.215.14: an address of this host");
    expect(
      await new CallbackGuard(onLoopback, lookupOf(["93.184.215.14"]), { hostAddresses }).resolve(new URL("https://hooks.test/")),
    ).toHaveLength(1);
    expect(
      await new CallbackGuard(exposed, lookupOf(["93.184.215.15"]), { hostAddresses }).resolve(new URL("https://hooks.test/")),
    ).toHaveLength(1);
  });
});

describe("CallbackGuard.refusal (when the URL is set)", () => {
  it("is null for an allowed URL; for a refused one, that it is not allowed and nothing of the address", async () => {
    expect(await new CallbackGuard(exposed, lookupOf(["93.184.215.14"])).refusal("https://hooks.test/")).toBeNull();
    const refusal = await new CallbackGuard(onLoopback, lookupOf(["169.254.169.254"]), { log: logLines() }).refusal("https://hooks.test/");
    expect(refusal).toBe(CALLBACK_URL_NOT_ALLOWED);
    expect(refusal).not.toMatch(/169\.254|resolves|link-local|metadata/);
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
