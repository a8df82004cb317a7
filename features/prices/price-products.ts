// A Brazilian seller reads prices as "de R$ 59,88 por R$ 49,90": list and sell side by side. The
// platform keeps one price per SKU and type (spec: 7. List prices), so a product is the pair.
import type { Price, PriceType } from "@marketplace/api/schemas/price";
import { moneyToDecimalString, parseMoneyInput } from "@/lib/money";
import type { MoneyInputError } from "@/lib/money";
import { guardReasons } from "./guard/price-guard";
import type { GuardReason } from "./guard/price-guard";

export interface ProductPrice {
  id: string;
  value: number;
  currency: string;
  normalizer: number;
  createdAt: string;
}

export interface PriceProduct {
  sku: string;
  name: string | null;
  list: ProductPrice | null;
  sell: ProductPrice | null;
  /** Centavos; null or absent when none is recorded. */
  cost?: number | null;
}

export interface PriceProductsPage {
  rows: PriceProduct[];
  page: number;
  size: number;
  total: number;
  /** False when the seller has more prices than the dashboard reads for this view. */
  complete: boolean;
}

/** Two prices of one SKU and type (one set while the pages were read): the newest wins. */
export function groupPricesByProduct(prices: readonly Price[]): PriceProduct[] {
  const products = new Map<string, PriceProduct>();
  for (const price of prices) {
    const product = products.get(price.sku) ?? { sku: price.sku, name: null, list: null, sell: null };
    const known = product[price.type];
    if (!known || known.createdAt <= price.created_at) {
      product[price.type] = {
        id: price.id,
        value: price.value,
        currency: price.currency,
        normalizer: price.normalizer,
        createdAt: price.created_at,
      };
    }
    products.set(price.sku, product);
  }
  return [...products.values()].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
}

/** So "tenis" finds "Tênis". In memory, not PostgreSQL: the products are the platform's, grouped here. */
export function foldForSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase("pt-BR");
}

export function searchProducts(products: readonly PriceProduct[], search: string | undefined): PriceProduct[] {
  const needle = search ? foldForSearch(search.trim()) : "";
  if (!needle) return [...products];
  return products.filter(
    (product) => foldForSearch(product.sku).includes(needle) || (product.name !== null && foldForSearch(product.name).includes(needle)),
  );
}

/** A fraction of the list price; null when a price is missing, currencies differ or there is no discount. */
export function discountOf(product: PriceProduct): number | null {
  const { list, sell } = product;
  if (!list || !sell || list.currency !== sell.currency) return null;
  const listScaled = BigInt(list.value) * BigInt(sell.normalizer);
  const sellScaled = BigInt(sell.value) * BigInt(list.normalizer);
  if (listScaled <= 0n || sellScaled >= listScaled) return null;
  // Millionths: plenty for "16,7 %".
  const ratio = Number(((listScaled - sellScaled) * 1_000_000n) / listScaled) / 1_000_000;
  return ratio;
}

export type BulkTarget = "list" | "sell" | "both";

export type BulkChange = { mode: "percent"; percent: string; target: BulkTarget } | { mode: "value"; amount: string; target: BulkTarget };

export type ChangeProblem = MoneyInputError | "percent_invalid" | "percent_out_of_range" | "no_price" | "not_positive";

/** Absent when the change may be sent. */
interface Guarded {
  held?: GuardReason[];
}

export type PlannedChange =
  | (Guarded & {
      sku: string;
      type: PriceType;
      kind: "changed" | "unchanged";
      current: ProductPrice;
      value: number;
      currency: string;
      normalizer: number;
      amount: string;
    })
  /** Setting a value creates the price; a percentage has nothing to apply to. */
  | (Guarded & {
      sku: string;
      type: PriceType;
      kind: "new";
      current: null;
      value: number;
      currency: string;
      normalizer: number;
      amount: string;
    })
  | { sku: string; type: PriceType; kind: "invalid"; current: ProductPrice | null; problem: ChangeProblem };

/** −99,99 % to +1000 %: the range a price change plausibly needs. */
const PERCENT = /^([-+\u2212]?)(\d{1,4})(?:[.,](\d{1,2}))?$/;

/** In hundredths of a percent (5,5 → 550). */
export function parsePercent(
  text: string,
): { ok: true; hundredths: number } | { ok: false; problem: "percent_invalid" | "percent_out_of_range" } {
  const match = PERCENT.exec(text.replace(/\s|%/g, ""));
  if (!match) return { ok: false, problem: "percent_invalid" };
  const [, sign, whole, fraction = ""] = match;
  const magnitude = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  const hundredths = sign === "-" || sign === "\u2212" ? -magnitude : magnitude;
  if (hundredths <= -10_000 || hundredths > 100_000) return { ok: false, problem: "percent_out_of_range" };
  return { ok: true, hundredths };
}

/** Rounded half away from zero to the price's own precision. */
export function applyPercent(value: number, hundredths: number): number {
  const numerator = BigInt(value) * BigInt(10_000 + hundredths);
  const quotient = numerator / 10_000n;
  const remainder = numerator % 10_000n;
  const rounded = remainder * 2n >= 10_000n ? quotient + 1n : remainder * 2n <= -10_000n ? quotient - 1n : quotient;
  return Number(rounded);
}

const typesOf = (target: BulkTarget): PriceType[] => (target === "both" ? ["list", "sell"] : [target]);

/** Before anything is sent; `locale` reads the typed amount. */
export function planBulkChange(products: readonly PriceProduct[], change: BulkChange, locale: string): PlannedChange[] {
  const percent = change.mode === "percent" ? parsePercent(change.percent) : null;
  const planned: PlannedChange[] = [];
  for (const product of products) {
    for (const type of typesOf(change.target)) {
      const current = product[type];
      const base = { sku: product.sku, type };
      if (percent) {
        if (!percent.ok) {
          planned.push({ ...base, kind: "invalid", current, problem: percent.problem });
          continue;
        }
        if (!current) {
          planned.push({ ...base, kind: "invalid", current: null, problem: "no_price" });
          continue;
        }
        const value = applyPercent(current.value, percent.hundredths);
        if (value <= 0) {
          planned.push({ ...base, kind: "invalid", current, problem: "not_positive" });
          continue;
        }
        planned.push({
          ...base,
          ...priced(value, current.currency, current.normalizer),
          kind: value === current.value ? "unchanged" : "changed",
          current,
        });
        continue;
      }
      if (change.mode !== "value") continue;
      // A new price copies the other price's currency and precision, else BRL in cents (spec: Limits).
      const model = current ?? product.list ?? product.sell;
      const currency = model?.currency ?? "BRL";
      const normalizer = model?.normalizer ?? 100;
      const parsed = parseMoneyInput(change.amount, { currency, normalizer }, locale);
      if (!parsed.ok) {
        planned.push({ ...base, kind: "invalid", current, problem: parsed.reason });
        continue;
      }
      if (parsed.value <= 0) {
        planned.push({ ...base, kind: "invalid", current, problem: "not_positive" });
        continue;
      }
      if (!current) {
        planned.push({ ...base, ...priced(parsed.value, currency, normalizer), kind: "new", current: null });
        continue;
      }
      planned.push({
        ...base,
        ...priced(parsed.value, currency, normalizer),
        kind: parsed.value === current.value ? "unchanged" : "changed",
        current,
      });
    }
  }
  return planned;
}

function priced(value: number, currency: string, normalizer: number) {
  return { value, currency, normalizer, amount: moneyToDecimalString({ value, normalizer }) };
}

/** For the page to show; the server judges again before sending. */
export function guardPlan(products: readonly PriceProduct[], planned: readonly PlannedChange[], limitPercent: number): PlannedChange[] {
  const bySku = new Map(products.map((product) => [product.sku, product]));
  return planned.map((change) => {
    if (change.kind !== "changed" && change.kind !== "new") return change;
    const product = bySku.get(change.sku);
    const held = guardReasons(
      { current: { list: product?.list ?? null, sell: product?.sell ?? null }, cost: product?.cost ?? null },
      change,
      limitPercent,
    );
    return held.length > 0 ? { ...change, held } : change;
  });
}
