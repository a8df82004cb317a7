import "server-only";
// Listeners for what happens to a shop, for the features that keep something about it in memory,
// without the kernel importing them (docs/decisions/0017-feature-slices.md). Held on globalThis:
// Next.js may load a module once per bundle (instrumentation, routes), and a change made in one
// must reach the copy that holds the cache. A listener is registered by the module that owns what
// it evicts, under a name, so a reloaded module replaces its listener instead of adding one.
import { RECEIVER_CHANGED_CHANNEL } from "@/lib/db-channels";
import { shopLog } from "@/lib/log.server";
import { pool } from "@/lib/pg-pool.server";

type ShopListener = (sellerId: string) => void;
type ShopEvent = "connected" | "receiverChanged";

const globalForShopEvents = globalThis as unknown as { shopEvents?: Record<ShopEvent, Map<string, ShopListener>> };
const listeners = (globalForShopEvents.shopEvents ??= { connected: new Map(), receiverChanged: new Map() });

/** `listener` runs in this process whenever `event` happens to a shop; `name` identifies it. */
export function whenShop(event: ShopEvent, name: string, listener: ShopListener): void {
  listeners[event].set(name, listener);
}

function tell(event: ShopEvent, sellerId: string) {
  for (const listener of listeners[event].values()) listener(sellerId);
}

/** A seller connected (or reconnected) the shop: work that follows a connect may start. */
export function shopConnected(sellerId: string): void {
  tell("connected", sellerId);
}

/** Evicts the seller's receiver here and, by NOTIFY, in every instance; open live streams re-check their session. */
export async function receiverChanged(sellerId: string) {
  tell("receiverChanged", sellerId);
  await pool.query(`SELECT pg_notify('${RECEIVER_CHANGED_CHANNEL}', $1)`, [sellerId]).catch((error: unknown) => {
    shopLog(sellerId, { component: "sellers" }).error({ err: error }, "could not tell other instances that the shop's receiver changed");
  });
}
