// Deterministic seed data: integrator apps, users, a small SKU catalogue with prices and orders
// with realistic Brazilian data. The same SANDBOX_SEED and base time always yield the same
// records; seeded timestamps derive from that base (seed/time.ts), never from the wall clock.
import type { SandboxConfig } from "../config";
import type { SandboxStore } from "../store";
import { SEED_USER_IDS, seedApps, seedExtraSellers, seedUsers } from "./apps-and-users";
import { seedCatalogue } from "./catalogue";
import { createOrderPools, type OrderPools, seedOrdersFor, seedShopOrdersFor } from "./orders";

export { DEFAULT_REDIRECT_URI, DEMO_PASSWORD, extraSeller, SEED_USER_IDS, seedApps, seedUsers } from "./apps-and-users";
export { productImageUrl } from "./catalogue";
export { generateCnpj, generateCpf, isValidCnpj, isValidCpf } from "./documents";
export { createOrderPools, generateOrder, isArrangedBySeller, SELLER_ARRANGED_METHOD, seedOrdersFor, seedShopOrdersFor } from "./orders";
export type { OrderPools } from "./orders";
export { SEED_BASE_TIME, seedBaseTime } from "./time";

/**
 * Each step draws from its own generator derived from SANDBOX_SEED, so adding a step (or more
 * orders) never shifts another step's records; the order of the calls only sets the order of
 * records in the store. `base` is the instant the seeded history runs up to (seed/time.ts).
 */
export function seedStore(store: SandboxStore, config: SandboxConfig, base: number): OrderPools {
  seedApps(store, config);
  seedUsers(store);
  const pools = createOrderPools(config.seed, config.publicUrl, base);
  seedCatalogue(store, SEED_USER_IDS.seller, pools, config.seed + 11);
  seedCatalogue(store, SEED_USER_IDS.seller2, pools, config.seed + 12);
  // The two demo shops have a daily rhythm up to the base time (seed/rhythm.ts).
  seedShopOrdersFor(store, SEED_USER_IDS.seller, config.seedOrders, config.seed + 1, pools, base);
  seedShopOrdersFor(store, SEED_USER_IDS.seller2, Math.round(config.seedOrders / 4), config.seed + 2, pools, base);
  // The extra sellers' orders, spread evenly (the first ones get one more when it does not divide)
  // over the year before the base: scale tests need many orders, not a running shop.
  const extra = seedExtraSellers(store, config.seedSellers);
  extra.forEach((id, index) => {
    const count = Math.floor(config.seedSellerOrders / extra.length) + (index < config.seedSellerOrders % extra.length ? 1 : 0);
    seedOrdersFor(store, id, count, config.seed + 100 + index, pools, base);
  });
  return pools;
}
