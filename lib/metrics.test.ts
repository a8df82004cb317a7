import { describe, expect, it } from "vitest";
import { createMarketplaceClient } from "@marketplace/api/client";
import { metrics, recordPlatformResponse } from "@/lib/metrics.server";

// Platform calls are counted by the client's onResponse hook (the client knows nothing of
// metrics): each HTTP request once, by endpoint and status, or by why no answer came.

async function platformCount(endpoint: string, status: string): Promise<number> {
  const { values } = await metrics.platformRequests.get();
  return (
    values.find((sample) => sample.metricName?.endsWith("_count") && sample.labels.endpoint === endpoint && sample.labels.status === status)
      ?.value ?? 0
  );
}

function clientAnswering(answer: () => Promise<Response>) {
  return createMarketplaceClient({ baseUrl: "http://platform.test", accessToken: "t", fetch: answer, onResponse: recordPlatformResponse });
}

describe("platform request metrics", () => {
  it("count an answer by its status, whatever the client makes of its body", async () => {
    const before = [await platformCount("getWebhookUrl", "200"), await platformCount("getWebhookUrl", "500")];
    await clientAnswering(async () => Response.json({ unexpected: true }))
      .getWebhookUrl()
      .catch(() => {});
    await clientAnswering(async () => Response.json({ error: "boom" }, { status: 500 }))
      .getWebhookUrl()
      .catch(() => {});
    expect(await platformCount("getWebhookUrl", "200")).toBe(before[0]! + 1);
    expect(await platformCount("getWebhookUrl", "500")).toBe(before[1]! + 1);
  });

  it("count a request that got no answer as network or timeout, each attempt once", async () => {
    const network = await platformCount("listOrders", "network");
    const timeout = await platformCount("createPrice", "timeout");
    // A read whose connection failed is sent once more: two requests.
    await clientAnswering(() => Promise.reject(new TypeError("fetch failed")))
      .listOrders()
      .catch(() => {});
    await clientAnswering(() => Promise.reject(new DOMException("The operation timed out.", "TimeoutError")))
      .createPrice({ sku: "S", price: { amount: 1, currency: "BRL", normalizer: 100 } } as never)
      .catch(() => {});
    expect(await platformCount("listOrders", "network")).toBe(network + 2);
    expect(await platformCount("createPrice", "timeout")).toBe(timeout + 1);
  });

  it("never lets an observer's failure become the call's", async () => {
    const client = createMarketplaceClient({
      baseUrl: "http://platform.test",
      accessToken: "t",
      fetch: async () => Response.json({ url: null }),
      onResponse: () => {
        throw new Error("observer broke");
      },
    });
    await expect(client.getWebhookUrl()).resolves.toEqual({ url: null });
  });
});
