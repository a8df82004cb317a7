import { z } from "zod";
import { PRESETS, customPeriod, presetPeriod } from "@/features/sales/periods";
import { RANKINGS } from "@/features/sales/best-products";
import type { Ranking } from "@/features/sales/best-products";
import type { Period, Preset } from "@/features/sales/periods";

// The sales page's address (issue 42): `?period=7d`, or `?from=2026-11-01&to=2026-11-30` for a range
// of whole days. Anything else is the last 30 days, said so on the page.

const day = z.iso.date();

export const salesParamsSchema = z.union([
  z.strictObject({ from: day, to: day }),
  z.strictObject({ period: z.enum(PRESETS).default("30d") }),
]);

export type SalesChoice = { preset: Preset } | { from: string; to: string };

/** The period chosen, and whether the address asked for one that could not be read (a range that ends before it starts). */
export function salesChoiceOf(params: Record<string, string | string[] | undefined>): { choice: SalesChoice; invalid: boolean } {
  // `by` ranks the best products: read apart (rankingOf).
  const single = Object.fromEntries(
    Object.entries(params).filter(([key, value]) => key !== "by" && typeof value === "string" && value !== ""),
  );
  const parsed = salesParamsSchema.safeParse(single);
  if (!parsed.success || ("from" in parsed.data && parsed.data.to < parsed.data.from))
    return { choice: { preset: "30d" }, invalid: Object.keys(single).length > 0 };
  return {
    choice: "from" in parsed.data ? { from: parsed.data.from, to: parsed.data.to } : { preset: parsed.data.period },
    invalid: false,
  };
}

export function periodOf(choice: SalesChoice, now: Date, timeZone: string): Period {
  return "preset" in choice ? presetPeriod(choice.preset, now, timeZone) : customPeriod(choice.from, choice.to, timeZone)!;
}

/** The same choice as query parameters, for the CSV's link. */
export function choiceQuery(choice: SalesChoice): string {
  return new URLSearchParams("preset" in choice ? { period: choice.preset } : { from: choice.from, to: choice.to }).toString();
}

/** How the best products are ranked: `?by=units|margin`, by revenue otherwise. */
export function rankingOf(params: Record<string, string | string[] | undefined>): Ranking {
  const parsed = z.enum(RANKINGS).safeParse(params.by);
  return parsed.success ? parsed.data : "revenue";
}
