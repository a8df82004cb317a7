import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderSchema } from "@marketplace/api/schemas/order";
import { createSandbox } from "../app";
import { loadSandboxConfig } from "../config";
import { obtainAccessToken, startTestSandbox } from "../testing";
import type { TestSandbox } from "../testing";
import { extraSeller } from "./apps-and-users";
import { SEED_BASE_TIME } from "./time";

// SANDBOX_SEED_SELLERS (issue 28): many PRO sellers for scale tests, beside the demo ones, with
// orders spread among them, who sign in as the demo sellers do.
describe("extra seeded sellers", () => {
  it("are read from the environment, with 5 orders each unless told otherwise", () => {
    expect(loadSandboxConfig({ SANDBOX_SEED_SELLERS: "200" })).toMatchObject({ seedSellers: 200, seedSellerOrders: 1_000 });
    expect(loadSandboxConfig({ SANDBOX_SEED_SELLERS: "3", SANDBOX_SEED_SELLER_ORDERS: "10" })).toMatchObject({
      seedSellers: 3,
      seedSellerOrders: 10,
    });
    expect(loadSandboxConfig({})).toMatchObject({ seedSellers: 0 });
    expect(() => loadSandboxConfig({ SANDBOX_SEED_SELLERS: "100000" })).toThrow(/SANDBOX_SEED_SELLERS/);
  });

  it("are PRO sellers named by a five-digit number, with the orders spread evenly and the demo sellers' untouched", () => {
    const sandbox = createSandbox({ config: { seedOrders: 40, seedSellers: 3, seedSellerOrders: 10 }, startDelivery: false });
    const users = [1, 2, 3].map((index) => sandbox.store.findUserByLogin(`seller-0000${index}@example.com`));
    expect(users.map((user) => user && { email: user.email, name: user.name, pro: user.pro })).toEqual([
      { email: "seller-00001@example.com", name: "Loja 00001", pro: true },
      { email: "seller-00002@example.com", name: "Loja 00002", pro: true },
      { email: "seller-00003@example.com", name: "Loja 00003", pro: true },
    ]);
    expect(sandbox.store.findUserByLogin("seller-00004@example.com")).toBeUndefined();
    const counts = users.map((user) => sandbox.store.sellerOrders(user!.id).items.length);
    expect(counts).toEqual([4, 3, 3]);
    for (const user of users) for (const order of sandbox.store.sellerOrders(user!.id).items) orderSchema.strict().parse(order);
    expect(sandbox.store.sellerOrders("650000000000000000000001").items).toHaveLength(40);
    expect(new Set([...users.map((user) => user!.id), "650000000000000000000001"]).size).toBe(4);
  });

  it("are the same on every start with the same seed and base time", () => {
    const orders = () =>
      JSON.stringify(
        createSandbox({
          config: { seedSellers: 2, seedSellerOrders: 6, seedBase: SEED_BASE_TIME },
          startDelivery: false,
        }).store.sellerOrders(extraSeller(2).id).items,
      );
    expect(orders()).toBe(orders());
  });

  describe("signing in", () => {
    let sandbox: TestSandbox;
    beforeAll(async () => {
      sandbox = await startTestSandbox({ config: { seedSellers: 12_000, seedSellerOrders: 12_000 } });
    }, 60_000);
    afterAll(() => sandbox?.close());

    it("through the OAuth flow, as the demo sellers do, even the last of 12,000", async () => {
      const token = await obtainAccessToken(sandbox.url, { login: "seller-12000@example.com" });
      const info = await sandbox.api("/v1.0/integradores/basic_user_info", { method: "POST", token, json: {} });
      expect(await info.json()).toEqual({ user_email: "seller-12000@example.com", user_name: "Loja 12000" });
      const orders = await sandbox.api("/v1.0/marketplace/orders?_limit=5", { token });
      expect(((await orders.json()) as { meta: { total: number } }).meta.total).toBe(1);
    });
  });
});
