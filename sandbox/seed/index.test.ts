import { describe, expect, it } from "vitest";
import { orderSchema } from "@marketplace/api/schemas/order";
import { createSandbox } from "../app";
import { SEED_USER_IDS } from "./apps-and-users";
import { SEED_BASE_TIME } from "./time";

describe("seed", () => {
  it("is deterministic for a given SANDBOX_SEED and base time", () => {
    const a = createSandbox({ config: { seedOrders: 30, seedBase: SEED_BASE_TIME }, startDelivery: false });
    const b = createSandbox({ config: { seedOrders: 30, seedBase: SEED_BASE_TIME }, startDelivery: false });
    const c = createSandbox({ config: { seedOrders: 30, seedBase: SEED_BASE_TIME, seed: 7 }, startDelivery: false });
    const orders = (sandbox: typeof a) => JSON.stringify(sandbox.store.sellerOrders(SEED_USER_IDS.seller).items);
    expect(orders(a)).toBe(orders(b));
    expect(orders(a)).not.toBe(orders(c));
  });

  it("gives seller2 a quarter of SANDBOX_SEED_ORDERS and seeds valid orders", () => {
    const sandbox = createSandbox({ config: { seedOrders: 240 }, startDelivery: false });
    expect(sandbox.store.sellerOrders(SEED_USER_IDS.seller).items).toHaveLength(240);
    expect(sandbox.store.sellerOrders(SEED_USER_IDS.seller2).items).toHaveLength(60);
    expect(sandbox.store.sellerOrders(SEED_USER_IDS.free).items).toHaveLength(0);
    for (const order of sandbox.store.sellerOrders(SEED_USER_IDS.seller).items) orderSchema.strict().parse(order);
  });

  // How long it takes is a figure of `npm run bench:sandbox`, not an assertion here.
  it("seeds 100,000 orders for one seller, oldest first", () => {
    const sandbox = createSandbox({ config: { seedOrders: 100_000 }, startDelivery: false });
    const items = sandbox.store.sellerOrders(SEED_USER_IDS.seller).items;
    expect(items).toHaveLength(100_000);
    expect(items.every((order, index) => index === 0 || (items[index - 1]?.created_at ?? "") <= order.created_at)).toBe(true);
  }, 60_000);
});
