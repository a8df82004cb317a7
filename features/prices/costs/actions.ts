"use server";

import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionAnswer, ActionState } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import {
  currentCosts,
  setCommissionRate,
  setPriceChangeLimit,
  setProductCost,
  setProductCosts,
} from "@/features/prices/costs/product-costs.server";
import { productNamesFor } from "@/lib/catalogue/product-names.server";
import { COST_CSV_LIMITS, MAX_COST_CENTAVOS, classifyCostRows, describeCostMessage, parseCostCsv } from "@/features/prices/costs/cost-csv";
import type { CostPreview } from "@/features/prices/costs/cost-csv";
import { COST_SOURCES, parseCostInput } from "@/features/prices/costs/cost-input";
import { BPS } from "@/features/prices/margin";
import { PRICE_CHANGE_LIMIT_RANGE } from "@/features/prices/guard/price-guard";
import { parsePercent } from "@/features/prices/price-products";
import { shopPath } from "@/lib/shops/paths";

/** Costs show on prices by product, a price's page and the SKU catalogue. */
function revalidateCosts(shopId: string) {
  revalidatePath(shopPath(shopId, "/prices"), "layout");
  revalidatePath(shopPath(shopId, "/skus"), "layout");
}

const skuSchema = z.string().trim().min(1).max(50);

const costForm = z.object({
  sku: skuSchema,
  /** Empty removes the cost. */
  cost: z.string().max(40),
  source: z.enum(COST_SOURCES),
});

export type CostActionState = ActionState<{ sku: string; cost: number | null }>;

export async function setCostAction(shopId: string, _previous: CostActionState, formData: FormData): Promise<CostActionState> {
  const { shop, person } = await requireShop(shopId, "costs.change");
  const [t, locale] = await Promise.all([getTranslations("prices.costs.input"), getLocale()]);
  const parsed = costForm.safeParse({ sku: formData.get("sku"), cost: formData.get("cost") ?? "", source: formData.get("source") });
  if (!parsed.success) {
    const fields = z.flattenError(parsed.error).fieldErrors;
    if (fields.cost) return failed(t("checkCost"), { fieldErrors: { cost: [t("invalid")] } });
    return failed(t("notValid"));
  }
  const cost = parseCostInput(parsed.data.cost, locale);
  if (!cost.ok) return failed(t("checkCost"), { fieldErrors: { cost: [t(cost.reason)] } });
  const { changed } = await setProductCost(shop.id, person, { sku: parsed.data.sku, cost: cost.cost }, parsed.data.source);
  if (changed) revalidateCosts(shop.id);
  const message = !changed
    ? t("unchanged")
    : cost.cost === null
      ? t("removed", { sku: parsed.data.sku })
      : t("saved", { sku: parsed.data.sku });
  return succeeded(message, { sku: parsed.data.sku, cost: cost.cost });
}

const codesSchema = z.array(skuSchema).max(200);

/** Centavos by code. */
export async function listCostsAction(shopId: string, skus: string[]): Promise<ActionAnswer<Record<string, number>>> {
  const { shop } = await requireShop(shopId, "prices.view");
  const parsed = codesSchema.safeParse(skus);
  if (!parsed.success) return failed((await getTranslations("prices.costs.input"))("notValid"));
  return succeeded("", Object.fromEntries(await currentCosts(shop.id, parsed.data)));
}

const uploadSchema = (errors: { choose: string; tooLarge: string }) =>
  z.object({
    file: z.file({ error: errors.choose }).min(1, { error: errors.choose }).max(COST_CSV_LIMITS.maxFileBytes, { error: errors.tooLarge }),
  });

/** Saves nothing. */
export async function previewCostCsvAction(shopId: string, formData: FormData): Promise<ActionAnswer<CostPreview>> {
  const { shop } = await requireShop(shopId, "costs.change");
  const [t, messages] = await Promise.all([getTranslations("prices.costs.action"), getTranslations("prices.costs.messages")]);
  const upload = uploadSchema({ choose: t("chooseFile"), tooLarge: t("fileTooLarge") }).safeParse({ file: formData.get("file") });
  if (!upload.success)
    return failed(upload.error.issues[0]?.message ?? t("chooseFile"), {
      fieldErrors: { file: upload.error.issues.map((issue) => issue.message) },
    });
  let text: string;
  try {
    // `fatal`: Latin-1 would otherwise turn "ç" into "�" silently.
    text = new TextDecoder("utf-8", { fatal: true }).decode(await upload.data.file.arrayBuffer());
  } catch {
    return failed(t("notUtf8"));
  }
  const parsed = parseCostCsv(text, { maxRows: COST_CSV_LIMITS.maxRows });
  if (!parsed.ok) return failed(describeCostMessage(parsed.error, messages));
  const codes = parsed.rows.map((row) => row.sku);
  const [current, names] = await Promise.all([
    currentCosts(shop.id, codes),
    productNamesFor(shop.id, [...codes, ...parsed.invalid.map((row) => row.sku)]),
  ]);
  const preview = classifyCostRows(parsed, current);
  return succeeded(t("rowsRead", { count: preview.rows.length }), { ...preview, names: Object.fromEntries(names) });
}

const costRowsSchema = z
  .array(z.object({ sku: skuSchema, cost: z.int().min(0).max(MAX_COST_CENTAVOS) }))
  .min(1)
  .max(COST_CSV_LIMITS.maxRows)
  .refine((rows) => new Set(rows.map((row) => row.sku)).size === rows.length);

/** In one transaction. */
export async function applyCostCsvAction(
  shopId: string,
  rows: { sku: string; cost: number }[],
): Promise<ActionAnswer<{ changed: number }>> {
  const { shop, person } = await requireShop(shopId, "costs.change");
  const t = await getTranslations("prices.costs.action");
  const parsed = costRowsSchema.safeParse(rows);
  if (!parsed.success) return failed(t("rowsInvalid"));
  const { changed } = await setProductCosts(shop.id, person, parsed.data, "csv");
  if (changed > 0) revalidateCosts(shop.id);
  return succeeded(t("saved", { count: changed }), { changed });
}

/** "30", "30 %", "30%": whole percent. */
const limitForm = z.object({
  limitPercent: z
    .string()
    .transform((text) => text.replace(/[\s%]/g, ""))
    .pipe(z.string().regex(/^\d{1,4}$/))
    .transform(Number)
    .pipe(z.int().min(PRICE_CHANGE_LIMIT_RANGE.min).max(PRICE_CHANGE_LIMIT_RANGE.max)),
});

export async function setPriceGuardLimitAction(shopId: string, _previous: ActionState, formData: FormData): Promise<ActionState> {
  const { shop, person } = await requireShop(shopId, "costs.change");
  const t = await getTranslations("settings.prices");
  const parsed = limitForm.safeParse({ limitPercent: formData.get("limitPercent") ?? "" });
  if (!parsed.success) {
    const message = t("limitInvalid", PRICE_CHANGE_LIMIT_RANGE);
    return failed(message, { fieldErrors: { limitPercent: [message] } });
  }
  if (await setPriceChangeLimit(shop.id, person, parsed.data.limitPercent)) {
    revalidatePath(shopPath(shop.id, "/settings"));
    revalidatePath(shopPath(shop.id, "/prices"), "layout");
  }
  return succeeded(t("limitSaved", { limit: parsed.data.limitPercent }), null);
}

const commissionForm = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("learned") }),
  z.object({ mode: z.literal("manual"), rate: z.string().max(20) }),
]);

/** Learned from the orders, or set by hand (0 to 100 %). */
export async function setCommissionRateAction(shopId: string, _previous: ActionState, formData: FormData): Promise<ActionState> {
  const { shop, person } = await requireShop(shopId, "costs.change");
  const t = await getTranslations("settings.prices");
  const parsed = commissionForm.safeParse({ mode: formData.get("mode"), rate: formData.get("rate") ?? "" });
  if (!parsed.success) return failed(t("commissionInvalid"), { fieldErrors: { rate: [t("commissionInvalid")] } });
  let rateBps: number | null = null;
  if (parsed.data.mode === "manual") {
    const percent = parsePercent(parsed.data.rate);
    if (!percent.ok || percent.hundredths < 0 || percent.hundredths > BPS)
      return failed(t("commissionInvalid"), { fieldErrors: { rate: [t("commissionInvalid")] } });
    rateBps = percent.hundredths;
  }
  if (await setCommissionRate(shop.id, person, rateBps)) {
    revalidatePath(shopPath(shop.id, "/settings"));
    revalidatePath(shopPath(shop.id, "/prices"), "layout");
  }
  return succeeded(rateBps === null ? t("commissionLearnedSaved") : t("commissionSaved"), null);
}
