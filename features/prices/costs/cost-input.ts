// Reais in the seller's notation, kept in centavos; an empty field removes the cost.
import { parseMoneyInput } from "@/lib/money";
import type { MoneyInputError } from "@/lib/money";
import { MAX_COST_CENTAVOS } from "./cost-csv";
import { COST_CURRENCY, COST_NORMALIZER } from "../margin";

export const COST_SOURCES = ["catalogue", "prices", "csv"] as const;
export type CostSource = (typeof COST_SOURCES)[number];

export type CostInputResult = { ok: true; cost: number | null } | { ok: false; reason: Exclude<MoneyInputError, "empty"> };

export function parseCostInput(text: string, locale: string): CostInputResult {
  if (text.trim() === "") return { ok: true, cost: null };
  const parsed = parseMoneyInput(text, { currency: COST_CURRENCY, normalizer: COST_NORMALIZER }, locale);
  if (!parsed.ok) return { ok: false, reason: parsed.reason === "empty" ? "invalid" : parsed.reason };
  if (parsed.value > MAX_COST_CENTAVOS) return { ok: false, reason: "too_large" };
  return { ok: true, cost: parsed.value };
}
