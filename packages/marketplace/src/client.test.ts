import { describe, expect, it } from "vitest";
import { createMarketplaceClient } from "./client";
import { MarketplaceError } from "./errors";

// The network under the client: a connection that fails before any answer, as a kept-alive
// socket the server just closed does.
function flakyFetch(failures: Error[], answer: () => Response) {
  const calls: string[] = [];
  const fetch = (async (input: URL | RequestInfo, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${String(input)}`);
    const failure = failures.shift();
    if (failure) throw failure;
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const reset = () => new TypeError("fetch failed", { cause: new Error("other side closed") });
const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("createMarketplaceClient: a connection that fails before any answer", () => {
  it("sends a read once more at once", async () => {
    const network = flakyFetch([reset()], json({ url: "https://example.com/hook" }));
    const client = createMarketplaceClient({ baseUrl: "http://platform.test", accessToken: "t", fetch: network.fetch });
    await expect(client.getWebhookUrl()).resolves.toEqual({ url: "https://example.com/hook" });
    expect(network.calls).toHaveLength(2);
  });

  it("gives up after the second failure of a read", async () => {
    const network = flakyFetch([reset(), reset()], json({}));
    const client = createMarketplaceClient({ baseUrl: "http://platform.test", accessToken: "t", fetch: network.fetch });
    await expect(client.getWebhookUrl()).rejects.toMatchObject({ kind: "unavailable" });
    expect(network.calls).toHaveLength(2);
  });

  it("never sends a write twice", async () => {
    const network = flakyFetch([reset()], json({ message: "ok", url: "https://example.com/hook" }));
    const client = createMarketplaceClient({ baseUrl: "http://platform.test", accessToken: "t", fetch: network.fetch });
    const error = await client.setWebhookUrl("https://example.com/hook").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect(network.calls).toEqual(["POST http://platform.test/v1.0/marketplace/webhooks/url"]);
  });

  it("does not repeat a read that timed out", async () => {
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    const network = flakyFetch([timeout], json({}));
    const client = createMarketplaceClient({ baseUrl: "http://platform.test", accessToken: "t", fetch: network.fetch });
    await expect(client.getWebhookUrl()).rejects.toMatchObject({ kind: "unavailable" });
    expect(network.calls).toHaveLength(1);
  });
});
