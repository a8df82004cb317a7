import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getCurrentPerson } from "@/lib/auth/session.server";
import { LAST_SHOP_COOKIE, lastShopOf } from "@/lib/shops/last-shop";
import { SHOP_SECTIONS, shopPath } from "@/lib/shops/paths";

// Shop-less paths people kept as bookmarks and links (/orders, /prices/products?…) lead to the same
// page of the shop the person opened last.
export default async function ShopSectionRedirect({ params, searchParams }: PageProps<"/[section]/[[...rest]]">) {
  const { section, rest = [] } = await params;
  if (!(SHOP_SECTIONS as readonly string[]).includes(section)) notFound();
  const person = await getCurrentPerson();
  if (!person) redirect("/connect");
  const shop = lastShopOf(person, (await cookies()).get(LAST_SHOP_COOKIE)?.value);
  if (!shop) redirect("/shops");
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) query.append(key, item);
  }
  const path = [section, ...rest].map(encodeURIComponent).join("/");
  redirect(shopPath(shop, `/${path}${query.size > 0 ? `?${query}` : ""}`));
}
