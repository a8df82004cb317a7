import "server-only";
import { getLocale, getTimeZone } from "next-intl/server";
import { displayFormat } from "@/lib/format";
import type { DisplayFormat } from "@/lib/format";

export async function getDisplayFormat(): Promise<DisplayFormat> {
  const [locale, timeZone] = await Promise.all([getLocale(), getTimeZone()]);
  return displayFormat({ locale, timeZone });
}
