import type { MetadataRoute } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { BRAND_COLOR } from "@/lib/brand";

// What a phone needs to add the dashboard to its home screen and open it like an app, in the
// seller's language (the same choice as the pages': cookie, else the browser's).
export default async function manifest(): Promise<MetadataRoute.Manifest> {
  const t = await getTranslations("shell");
  return {
    name: t("brand"),
    short_name: t("shortName"),
    description: t("description"),
    lang: await getLocale(),
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "portrait",
    background_color: "#fafafa",
    theme_color: BRAND_COLOR,
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
