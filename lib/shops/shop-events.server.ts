import "server-only";
// Listeners for what happens to a shop, for the features that keep something about it in memory,
// without the kernel importing them (docs/decisions/0017-feature-slices.md). Held on globalThis:
// Next.js may load a module once per bundle (instrumentation, routes), and a change made in one
// must reach the copy that holds the cache. A listener is registered by the module that owns what
// it evicts, under a name, so a reloaded module replaces its listener instead of adding one.
import { RECEIVER_CHANGED_CHANNEL } from "@/lib/db-channels";
import { shopLog } from "@/lib/log.server";
import { pool } from "@/lib/pg-pool.server";

type ShopListener = (shopId: string) => void;
type ShopEvent = "connected" | "receiverChanged";

const globalForShopEvents = globalThis as unknown as { shopEvents?: Record<ShopEvent, Map<string, ShopListener>> };
const listeners = (globalForShopEvents.shopEvents ??= { connected: new Map(), receiverChanged: new Map() });

/** `listener` runs in this process whenever `event` happens to a shop; `name` identifies it. */
export function whenShop(event: ShopEvent, name: string, listener: ShopListener): void {
  listeners[event].set(name, listener);
}

function tell(event: ShopEvent, shopId: string) {
  for (const listener of listeners[event].values()) listener(shopId);
}

/** A seller connected (or reconnected) the shop: work that follows a connect may start. */
export function shopConnected(shopId: string): void {
  tell("connected", shopId);
}

/** Evicts the seller's receiver here and, by NOTIFY, in every instance; open live streams re-check their session. */
export async function receiverChanged(shopId: string) {
  tell("receiverChanged", shopId);
  await pool.query(`SELECT pg_notify('${RECEIVER_CHANGED_CHANNEL}', $1)`, [shopId]).catch((error: unknown) => {
    shopLog(shopId, { component: "sellers" }).error({ err: error }, "could not tell other instances that the shop's receiver changed");
  });
}
