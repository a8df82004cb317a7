"use server";

import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionAnswer, ActionState } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import type { ShopAccess } from "@/lib/auth/session.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { setPriceGuarded } from "@/features/prices/prices.server";
import { shopPath } from "@/lib/shops/paths";
import { describeProblem } from "@/lib/platform-problem";
import type { PlatformProblem } from "@/lib/platform-problem";
import { currencySchema } from "@marketplace/api/schemas/common";
import { PRICE_STATUS, priceTypeSchema } from "@marketplace/api/schemas/price";
import { parseMoneyInput } from "@/lib/money";
import { confirmedPastGuard } from "@/features/prices/guard/price-guard";
import type { HeldChange } from "@/features/prices/guard/price-guard";

export interface PriceFormValues {
  type: string;
  amount: string;
  currency: string;
}

/** What the seller typed comes back with every outcome, so the form works without JavaScript. */
export type PriceActionState = ActionState<{ priceId: string; values: PriceFormValues }, { values: PriceFormValues; held?: HeldChange }>;

const priceForm = z.object({
  sku: z.string().trim().min(1).max(50),
  type: priceTypeSchema,
  amount: z.string().max(40),
  currency: currencySchema,
  normalizer: z.coerce.number().int().positive().max(1_000_000),
  confirm: z.string().trim().max(50).optional(),
});
/** Unchecked. `confirm`: the SKU code a held change was confirmed for; any other value confirms nothing. */
type PriceInput = { sku: string; type: string; amount: string; currency: string; normalizer: unknown; confirm?: unknown };

type SetPriceOutcome =
  | { ok: true; priceId: string; message: string }
  | { ok: false; message: string; fieldErrors: Record<string, string[]>; problem?: PlatformProblem; held?: HeldChange };

/** Prices are immutable, so this creates one; a held change is sent only once its product is confirmed. */
async function setPrice({ shop, person }: ShopAccess, input: PriceInput): Promise<SetPriceOutcome> {
  const [t, problems, locale] = await Promise.all([getTranslations("prices.products.setPrice"), getTranslations("problems"), getLocale()]);
  const parsed = priceForm.safeParse({ ...input, confirm: input.confirm ?? undefined });
  if (!parsed.success) {
    const fields = z.flattenError(parsed.error).fieldErrors;
    const fieldErrors: Record<string, string[]> = {};
    if (fields.type) fieldErrors.type = [t("typeInvalid")];
    if (fields.currency) fieldErrors.currency = [t("currencyInvalid")];
    if (fields.amount) fieldErrors.amount = [t("amount.invalid")];
    if (fields.sku || fields.normalizer || fields.confirm) return { ok: false, message: t("notValid"), fieldErrors };
    return { ok: false, message: t("checkFields"), fieldErrors };
  }
  const { sku, type, currency, normalizer } = parsed.data;
  const amount = parseMoneyInput(parsed.data.amount, { currency, normalizer }, locale);
  if (!amount.ok) return { ok: false, message: t("checkAmount"), fieldErrors: { amount: [t(`amount.${amount.reason}`)] } };

  const confirmed = parsed.data.confirm === sku;
  const outcome = await setPriceGuarded(shop, { sku, type, value: amount.value, currency, normalizer }, { confirmed });
  if (outcome.kind === "held") return { ok: false, message: t("held"), fieldErrors: {}, held: { sku, type, reasons: outcome.reasons } };
  const { result, before, confirmedPast } = outcome;
  if (!result.ok)
    return { ok: false, message: describeProblem(result.problem, problems, "changePrices"), fieldErrors: {}, problem: result.problem };
  const response = result.data;
  if (response.statusCode !== PRICE_STATUS.imported.statusCode || !response.id) {
    if (response.statusCode === PRICE_STATUS.blocked.statusCode) return { ok: false, message: t("blocked"), fieldErrors: {} };
    const reasons = response.errors.map((error) => `${error.field}: ${error.message}`).join("; ");
    return { ok: false, message: `${response.statusMessage}${reasons ? `: ${reasons}` : ""}`, fieldErrors: {} };
  }
  await recordAudit({
    shopId: shop.id,
    person,
    action: "price.set",
    subject: sku,
    before,
    after: { type, value: amount.value, currency, normalizer, ...confirmedPastGuard(confirmedPast) },
  });
  revalidatePath(shopPath(shop.id, "/prices"), "layout");
  return { ok: true, priceId: response.id, message: response.statusMessage };
}

/** Works without JavaScript. */
export async function createPriceAction(shopId: string, _previous: PriceActionState, formData: FormData): Promise<PriceActionState> {
  const access = await requireShop(shopId, "prices.change");
  const values: PriceFormValues = {
    type: String(formData.get("type") ?? ""),
    amount: String(formData.get("amount") ?? ""),
    currency: String(formData.get("currency") ?? "")
      .trim()
      .toUpperCase(),
  };
  const outcome = await setPrice(access, {
    ...values,
    sku: String(formData.get("sku") ?? ""),
    normalizer: String(formData.get("normalizer") ?? ""),
    confirm: formData.get("confirm"),
  });
  if (!outcome.ok) {
    const data = { values, ...(outcome.held ? { held: outcome.held } : {}) };
    return failed(outcome.message, { fieldErrors: outcome.fieldErrors, ...(outcome.problem ? { problem: outcome.problem } : {}), data });
  }
  return succeeded(outcome.message, { priceId: outcome.priceId, values });
}

/** `held`: the page asks the seller to confirm the product. */
export type ProductPriceAnswer = ActionAnswer<{ priceId: string }, { held: HeldChange }>;

export async function setProductPriceAction(
  shopId: string,
  input: { sku: string; type: string; amount: string; currency: string; normalizer: number; confirm?: string },
): Promise<ProductPriceAnswer> {
  const access = await requireShop(shopId, "prices.change");
  const outcome = await setPrice(access, input);
  if (!outcome.ok) {
    return failed(outcome.message, {
      fieldErrors: outcome.fieldErrors,
      ...(outcome.problem ? { problem: outcome.problem } : {}),
      ...(outcome.held ? { data: { held: outcome.held } } : {}),
    });
  }
  return succeeded(outcome.message, { priceId: outcome.priceId });
}
