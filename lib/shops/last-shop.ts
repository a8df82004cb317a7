// Which shop the shop-less paths (/, /orders, bookmarks of before) lead a person to: the one whose
// page this browser showed last (a cookie components/remember-shop.tsx sets when a shop page is
// actually shown, so a link's prefetch does not count), else the one they joined or connected
// last, else their only one. Never a shop they are not in, nor a disconnected one.
export const LAST_SHOP_COOKIE = "last-shop";

export function lastShopOf(person: { lastShopId: string | null; shops: { id: string; connected: boolean }[] }, cookie: string | undefined): string | null {
  const open = person.shops.filter((shop) => shop.connected);
  for (const candidate of [cookie, person.lastShopId]) {
    if (candidate && open.some((shop) => shop.id === candidate)) return candidate;
  }
  return open.length === 1 ? open[0]!.id : null;
}
