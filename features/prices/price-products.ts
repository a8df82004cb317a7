// A Brazilian seller reads prices as "de R$ 59,88 por R$ 49,90": list and sell side by side. The
// platform keeps one price per SKU and type (spec: 7. List prices), so a product is the pair.
import type { Price, PriceType } from "@marketplace/api/schemas/price";
import { moneyToDecimalString, parseMoneyInput } from "@/lib/money";
import type { MoneyInputError } from "@/lib/money";
import { roundProductPrices } from "./bulk/price-rounding";
import type { CentsRounding } from "./bulk/price-rounding";
import { judgePrice } from "./guard/price-guard";
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

/** `rounding`: the cents the new prices end in; "exact" when absent. */
export type BulkChange = ({ mode: "percent"; percent: string } | { mode: "value"; amount: string }) & {
  target: BulkTarget;
  rounding?: CentsRounding;
};

/** The last three: an undo's price that stays as it is (bulk/bulk-undo.ts). */
export type ChangeProblem =
  | MoneyInputError
  | "percent_invalid"
  | "percent_out_of_range"
  | "no_price"
  | "not_positive"
  | "changed_since"
  | "already_back"
  | "no_previous";

/** A price as a plan shows it now. */
export type PlannedPrice = Omit<ProductPrice, "createdAt">;

/** Absent when the change may be sent. */
interface Guarded {
  held?: GuardReason[];
}

export type PlannedChange =
  | (Guarded & {
      sku: string;
      type: PriceType;
      kind: "changed" | "unchanged";
      current: PlannedPrice;
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
  | { sku: string; type: PriceType; kind: "invalid"; current: PlannedPrice | null; problem: ChangeProblem };

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

/** A price the change sets, before its cents are rounded. */
interface Draft {
  current: ProductPrice | null;
  value: number;
  currency: string;
  normalizer: number;
}

/** Before anything is sent; `locale` reads the typed amount. Cents are rounded per `change.rounding` (price-rounding.ts). */
export function planBulkChange(products: readonly PriceProduct[], change: BulkChange, locale: string): PlannedChange[] {
  const percent = change.mode === "percent" ? parsePercent(change.percent) : null;
  const planned: PlannedChange[] = [];
  for (const product of products) {
    const types = typesOf(change.target);
    const drafted = new Map(types.map((type) => [type, draftChange(product, type, change, percent, locale)]));
    const draftOf = (type: PriceType) => {
      const draft = drafted.get(type);
      return draft && !("problem" in draft) ? draft : null;
    };
    // Both prices at once, so a sell price stays at or under its list price.
    const rounded = roundProductPrices(
      { list: draftOf("list"), sell: draftOf("sell") },
      { list: product.list, sell: product.sell },
      change.rounding ?? "exact",
    );
    for (const type of types) {
      const draft = drafted.get(type)!;
      if ("problem" in draft) {
        planned.push({ sku: product.sku, type, kind: "invalid", current: product[type], problem: draft.problem });
        continue;
      }
      const value = rounded[type] ?? draft.value;
      const base = { sku: product.sku, type, ...priced(value, draft.currency, draft.normalizer) };
      if (draft.current === null) planned.push({ ...base, kind: "new", current: null });
      else planned.push({ ...base, kind: value === draft.current.value ? "unchanged" : "changed", current: draft.current });
    }
  }
  return planned;
}

function draftChange(
  product: PriceProduct,
  type: PriceType,
  change: BulkChange,
  percent: ReturnType<typeof parsePercent> | null,
  locale: string,
): Draft | { problem: ChangeProblem } {
  const current = product[type];
  if (percent) {
    if (!percent.ok) return { problem: percent.problem };
    if (!current) return { problem: "no_price" };
    const value = applyPercent(current.value, percent.hundredths);
    if (value <= 0) return { problem: "not_positive" };
    return { current, value, currency: current.currency, normalizer: current.normalizer };
  }
  if (change.mode !== "value") return { problem: "invalid" };
  // A new price copies the other price's currency and precision, else BRL in cents (spec: Limits).
  const model = current ?? product.list ?? product.sell;
  const currency = model?.currency ?? "BRL";
  const normalizer = model?.normalizer ?? 100;
  const parsed = parseMoneyInput(change.amount, { currency, normalizer }, locale);
  if (!parsed.ok) return { problem: parsed.reason };
  if (parsed.value <= 0) return { problem: "not_positive" };
  return { current, value: parsed.value, currency, normalizer };
}

function priced(value: number, currency: string, normalizer: number) {
  return { value, currency, normalizer, amount: moneyToDecimalString({ value, normalizer }) };
}

/** For the page to show; the server judges again before sending. `rateBps`: the commission rate margins use. */
export function guardPlan(
  products: readonly PriceProduct[],
  planned: readonly PlannedChange[],
  limitPercent: number,
  rateBps: number | null = null,
): PlannedChange[] {
  const bySku = new Map(products.map((product) => [product.sku, product]));
  return planned.map((change) => {
    if (change.kind !== "changed" && change.kind !== "new") return change;
    const product = bySku.get(change.sku);
    const held = judgePrice(
      { current: { list: product?.list ?? null, sell: product?.sell ?? null }, cost: product?.cost ?? null },
      change,
      limitPercent,
      rateBps,
    );
    return held.length > 0 ? { ...change, held } : change;
  });
}
