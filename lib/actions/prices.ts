"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { failed, succeeded } from "@/lib/actions/action-state";
import type { ActionState } from "@/lib/actions/action-state";
import { requireSeller } from "@/lib/auth/session";
import { createPriceForSeller } from "@/lib/data/prices";
import { describeProblem } from "@/lib/platform-problem";
import { currencySchema } from "@/lib/marketplace/schemas/common";
import { PRICE_STATUS, priceTypeSchema } from "@/lib/marketplace/schemas/price";
import { parseMoneyInput } from "@/lib/money";
import type { MoneyInputError } from "@/lib/money";

export interface PriceFormValues {
  type: string;
  amount: string;
  currency: string;
}

/** What the seller typed comes back with every outcome: the form shows it again (with or without JavaScript). */
export type PriceActionState = ActionState<{ priceId: string; values: PriceFormValues }, { values: PriceFormValues }>;

const AMOUNT_ERRORS: Record<MoneyInputError, string> = {
  empty: "Enter an amount.",
  invalid: "Enter an amount such as 1234,56.",
  negative: "A price cannot be negative.",
  too_precise: "Too many decimal places for this currency.",
  too_large: "This amount is too large.",
};

const priceForm = z.object({
  sku: z.string().trim().min(1).max(50),
  type: priceTypeSchema,
  amount: z.string().max(40),
  currency: currencySchema,
  normalizer: z.coerce.number().int().positive().max(1_000_000),
});

/**
 * "Edit price": prices are never edited in place, so this creates a new price for the SKU and
 * type (spec: SKU and price immutability; 5. Create price). The amount is typed in currency units
 * and converted to the integer value exactly, with the price's normalizer.
 */
export async function createPriceAction(_previous: PriceActionState, formData: FormData): Promise<PriceActionState> {
  const seller = await requireSeller();
  const values: PriceFormValues = {
    type: String(formData.get("type") ?? ""),
    amount: String(formData.get("amount") ?? ""),
    currency: String(formData.get("currency") ?? "").trim().toUpperCase(),
  };
  const parsed = priceForm.safeParse({ ...values, sku: formData.get("sku"), normalizer: formData.get("normalizer") });
  if (!parsed.success) {
    const { type, currency, amount } = z.flattenError(parsed.error).fieldErrors;
    return failed("Check the highlighted fields.", { fieldErrors: { ...(type && { type }), ...(currency && { currency }), ...(amount && { amount }) }, data: { values } });
  }
  const { sku, type, currency, normalizer } = parsed.data;
  const amount = parseMoneyInput(parsed.data.amount, { currency, normalizer }, "pt-BR");
  if (!amount.ok) return failed("Check the amount.", { fieldErrors: { amount: [AMOUNT_ERRORS[amount.reason]] }, data: { values } });

  const result = await createPriceForSeller(seller, { sku, type, value: amount.value, currency, normalizer, extras: {} });
  if (!result.ok) {
    return failed(describeProblem(result.problem, "change prices"), { problem: result.problem, data: { values } });
  }
  const response = result.data;
  if (response.statusCode !== PRICE_STATUS.imported.statusCode || !response.id) {
    const reasons = response.errors.map((error) => `${error.field}: ${error.message}`).join("; ");
    const blocked = response.statusCode === PRICE_STATUS.blocked.statusCode;
    const message = blocked
      ? "The marketplace is blocking requests for a moment (too many). Wait a minute and try again."
      : `${response.statusMessage}${reasons ? `: ${reasons}` : ""}`;
    return failed(message, { data: { values } });
  }
  revalidatePath(`/prices/${response.id}`);
  revalidatePath("/prices");
  return succeeded(response.statusMessage, { priceId: response.id, values });
}
