// What an index or trigger on the order mirror costs its writes (issue 42): batches of 500 orders
// across the small shops of bench/lib/big-shop.ts, written as processing writes them — new orders,
// then the same orders again with a new status (an order approved, shipped, cancelled).
import { percentile } from "./load";
import { cpfOf, firstNames, firstUnseededOrder, pick, surnames } from "./big-shop";
import type { BigShopSize } from "./big-shop";
import type { OrderSummary } from "@marketplace/api/schemas/order";

const BATCH = 500;
const BATCHES = 30;

function newOrder(n: number): OrderSummary {
  const at = new Date().toISOString();
  const money = { currency: "BRL", normalizer: 100 };
  return {
    id: n.toString(16).padStart(24, "0"),
    status: "approved",
    created_at: at,
    approved_at: at,
    updated_at: at,
    customer: { name: `${pick(firstNames)} ${pick(surnames)} ${pick(surnames)}`, email: `c${n}@example.com`, document_number: cpfOf(n) },
    amounts: {
      ...money,
      total: 12_345,
      freight: { ...money, total: 1500, shared: 0 },
      comission: { ...money, type: "value", total: 1800 },
    },
    deliveries: [
      {
        id: (n + 1).toString(16).padStart(24, "0"),
        status: "created",
        items: [{ quantity: 1, unit_price: { value: 12_345, ...money }, info: { sku: `SKU-${n % 5000}`, name: "Camiseta Básica Azul" } }],
        shipping: {
          handling_time: { limit_date: at },
          tracking: { number: `AA${String(n).padStart(9, "0")}BR` },
          recipient: { address: { state: "SP" } },
        },
      },
    ],
  } as OrderSummary;
}

export interface WriteCost {
  /** ms per batch of 500, sorted. */
  inserts: number[];
  updates: number[];
}

/** New orders across the small shops of a database `seedBigShop` made with `size`; each call writes new ones. */
export function mirrorWrites(size: BigShopSize) {
  const shops = size.shops;
  let next = firstUnseededOrder(size);
  return async function measure(): Promise<WriteCost> {
    const { upsertShopsMirrorOrders } = await import("@/lib/orders/order-mirror.server");
    const batch = () => {
      const byShop = new Map<string, OrderSummary[]>();
      for (let index = 0; index < BATCH; index++) {
        const id = `shop-${2 + Math.floor(Math.random() * (shops - 1))}`;
        byShop.set(id, [...(byShop.get(id) ?? []), newOrder(next++)]);
      }
      return [...byShop].map(([sellerId, orders]) => ({ sellerId, orders }));
    };
    const later = (given: ReturnType<typeof batch>) =>
      given.map(({ sellerId, orders }) => ({
        sellerId,
        orders: orders.map((order) => ({
          ...order,
          status: "finished" as const,
          updated_at: new Date(Date.parse(order.updated_at) + 60_000).toISOString(),
        })),
      }));
    const timed = async (write: () => Promise<unknown>) => {
      const started = performance.now();
      await write();
      return performance.now() - started;
    };
    for (let warm = 0; warm < 3; warm++) await upsertShopsMirrorOrders(batch(), { tellNew: true });
    const inserts: number[] = [];
    const updates: number[] = [];
    for (let run = 0; run < BATCHES; run++) {
      const given = batch();
      inserts.push(await timed(() => upsertShopsMirrorOrders(given, { tellNew: true })));
      updates.push(await timed(() => upsertShopsMirrorOrders(later(given))));
    }
    return { inserts: inserts.sort((a, b) => a - b), updates: updates.sort((a, b) => a - b) };
  };
}

export function printWriteCost(label: string, cost: WriteCost) {
  const line = (what: string, times: number[]) =>
    `${what} per batch p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, ${((percentile(times, 50) / BATCH) * 1000).toFixed(0)} µs per order`;
  console.log(`  ${label.padEnd(28)} new: ${line("", cost.inserts)}`);
  console.log(`  ${"".padEnd(28)} status changed: ${line("", cost.updates)}`);
}

export const WRITES_DESCRIBED = `${BATCHES} batches of ${BATCH} orders across the small shops, each written new and then with a new status`;
