// Where the shop-less paths lead: the shop this browser last rendered (a prefetch does not count),
// else the last joined or connected, else the only one; never one they are not in or disconnected.
export const LAST_SHOP_COOKIE = "last-shop";

export function lastShopOf(
  person: { lastShopId: string | null; shops: { id: string; connected: boolean }[] },
  cookie: string | undefined,
): string | null {
  const open = person.shops.filter((shop) => shop.connected);
  for (const candidate of [cookie, person.lastShopId]) {
    if (candidate && open.some((shop) => shop.id === candidate)) return candidate;
  }
  return open.length === 1 ? open[0]!.id : null;
}
