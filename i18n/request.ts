// next-intl's per-request configuration (next.config.mjs points here): the language is the
// person's choice from the header switch, else the browser's; dates are in the time zone of the
// shop the page is about (its Settings; proxy.ts names the shop), São Paulo elsewhere. Cached by
// next-intl for the request.
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { DEFAULT_TIME_ZONE, LOCALE_COOKIE, formats, isTimeZone, negotiateLocale } from "@/i18n/config";
import { getShopAccess } from "@/lib/auth/session.server";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";

export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const shopId = headerList.get("x-shop-id");
  const access = shopId ? await getShopAccess(shopId) : null;
  const seller = access && typeof access !== "string" ? access.shop : null;
  const locale = negotiateLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get("accept-language"));
  return {
    locale,
    timeZone: seller && isTimeZone(seller.timeZone) ? seller.timeZone : DEFAULT_TIME_ZONE,
    messages: catalogues[locale] as Messages,
    formats,
  };
});
