import { describe, expect, it } from "vitest";
import { orderSchema } from "@/lib/marketplace/schemas/order";
import { createSandbox } from "./app";
import { generateCnpj, generateCpf, isValidCnpj, isValidCpf, SEED_USER_IDS } from "./seed";
import { SeededRandom } from "./random";

describe("seed", () => {
  it("is deterministic for a given SANDBOX_SEED", () => {
    const a = createSandbox({ config: { seedOrders: 30 }, startDelivery: false });
    const b = createSandbox({ config: { seedOrders: 30 }, startDelivery: false });
    const c = createSandbox({ config: { seedOrders: 30, seed: 7 }, startDelivery: false });
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

  it("generates CPF and CNPJ numbers with valid check digits", () => {
    const random = new SeededRandom(1);
    for (let i = 0; i < 200; i++) {
      expect(isValidCpf(generateCpf(random))).toBe(true);
      expect(isValidCnpj(generateCnpj(random))).toBe(true);
    }
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("52998224726")).toBe(false);
    expect(isValidCpf("11111111111")).toBe(false);
    expect(isValidCnpj("11222333000181")).toBe(true);
    expect(isValidCnpj("11222333000182")).toBe(false);
  });

  it("loads 100,000 seeded orders in seconds", () => {
    const started = performance.now();
    const sandbox = createSandbox({ config: { seedOrders: 100_000 }, startDelivery: false });
    const seconds = (performance.now() - started) / 1000;
    const items = sandbox.store.sellerOrders(SEED_USER_IDS.seller).items;
    expect(items).toHaveLength(100_000);
    expect(items.every((order, index) => index === 0 || (items[index - 1]?.created_at ?? "") <= order.created_at)).toBe(true);
    expect(seconds).toBeLessThan(20);
  }, 60_000);
});
