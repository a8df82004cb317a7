import { createTranslator } from "next-intl";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type * as Export from "@/features/orders/orders-export.server";
import type * as Orders from "@/features/orders/orders.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import type { ProblemWords } from "@/lib/platform-problem";
import { ordersSchema } from "@/features/orders/order-filters";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { useTestDatabase } from "../support/database";
import { connectTestShop } from "../support/shops";

// The orders export runs on its own after the seller's click, so a rate limit (429) is waited out
// (Retry-After) and the file still holds every order; a limit that does not lift ends it in words.

const LOGIN = "seller@example.com";
const problems = createTranslator({ locale: "en", messages: catalogues.en as Messages, namespace: "problems" }) as unknown as ProblemWords;

let sandbox: TestSandbox;
let token: string;
let shop: CurrentShop;
let exporter: typeof Export;
let orders: typeof Orders;
/** Every order id of the shop, as the sandbox's API lists them. */
let wireIds: string[];

beforeAll(async () => {
  await useTestDatabase();
  sandbox = await startTestSandbox({ config: { seedOrders: 120 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  let shopId: string;
  ({ token, sellerId: shopId } = await connectTestShop({ sandboxUrl: sandbox.url, login: LOGIN }));
  const { findCurrentShop } = await import("@/lib/shops/shops.server");
  shop = (await findCurrentShop(shopId))!;
  exporter = await import("@/features/orders/orders-export.server");
  orders = await import("@/features/orders/orders.server");
  wireIds = [];
  for (let offset = 0; ; offset += 200) {
    const response = await sandbox.api(`/v1.0/marketplace/orders?_limit=200&_offset=${offset}`, { token });
    const { results } = (await response.json()) as { results: { id: string }[] };
    wireIds.push(...results.map((order) => order.id));
    if (results.length < 200) break;
  }
}, 60_000);

afterEach(async () => {
  await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: null } });
});

afterAll(async () => {
  await sandbox?.close();
});

const rateLimitShop = () =>
  sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: { [LOGIN]: { retryAfterSeconds: 1 } } } });

async function exportAll(): Promise<string[]> {
  const filters = ordersSchema.parse(new URLSearchParams());
  if (!filters.success) throw new Error("the default filters do not parse");
  const ids: string[] = [];
  for await (const page of exporter.exportOrderPages(shop, filters.data, problems)) ids.push(...page.map((order) => order.id));
  return ids;
}

describe("the orders export under a rate limit", () => {
  it("waits out 429s and still exports every order", async () => {
    expect(wireIds.length).toBeGreaterThan(50); // more than one page
    await rateLimitShop();
    const exported = exportAll();
    // The shop is limited for a while: the export's first calls get 429 and wait their Retry-After.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: null } });
    expect((await exported).toSorted()).toEqual(wireIds.toSorted());
  }, 30_000);

  it("orders read by id wait out a 429 when asked to, and report it at once when not", async () => {
    const ids = wireIds.slice(0, 5);
    await rateLimitShop();
    const impatient = await orders.ordersByIds(shop, ids);
    expect(impatient).toMatchObject({ ok: false, problem: { kind: "error", status: 429, retryAfterMs: 1_000 } });

    const patient = orders.ordersByIds(shop, ids, { rateLimitAttempts: 6 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await sandbox.api("/_sandbox/faults", { method: "POST", json: { userFaults: null } });
    const result = await patient;
    expect(result.ok && result.data.map((order) => order.id)).toEqual(ids);
  }, 30_000);

  it("ends with the seller's words when the limit does not lift within six calls", async () => {
    await rateLimitShop();
    const failure = await exportAll().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(exporter.ExportError);
    expect((failure as Error).message).toBe("The marketplace asked this shop to slow down (too many requests). Try again in 1 second.");
  }, 30_000);
});
