"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { useDisplayFormat } from "@/lib/format";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";
import type { GuardReason } from "@/features/prices/guard/price-guard";

export interface HeldProduct {
  sku: string;
  name: string | null;
  /** Every reason over the product's held changes. */
  reasons: GuardReason[];
}

/** "CAM-001 · Camiseta Básica P", or the code alone. */
export const productLabel = (product: { sku: string; name: string | null }) =>
  product.name ? `${product.sku} · ${product.name}` : product.sku;

/**
 * The price guard's confirmation before a bulk change is sent. Only the products checked here are
 * sent; the server is told which, and sends no other held change.
 */
export function HeldChanges({
  products,
  confirmed,
  onChange,
  disabled = false,
}: {
  products: HeldProduct[];
  confirmed: ReadonlySet<string>;
  onChange: (sku: string, confirmed: boolean) => void;
  disabled?: boolean;
}) {
  const t = useTranslations("prices.guard");
  const format = useDisplayFormat();
  const id = useId();
  if (products.length === 0) return null;
  return (
    <fieldset className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950" data-testid="held-changes">
      <legend className="px-1 font-semibold">{t("confirmTitle", { count: products.length })}</legend>
      <p>{t("confirmHelp")}</p>
      <ul className="space-y-2">
        {products.map((product, index) => {
          // By position: a SKU code may hold spaces, which an id reference cannot.
          const reasonsId = `${id}-reasons-${index}`;
          return (
            <li key={product.sku} data-testid="held-product" data-sku={product.sku}>
              <label className="flex min-h-11 items-start gap-3 md:min-h-0 md:gap-2">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={confirmed.has(product.sku)}
                  disabled={disabled}
                  onChange={(event) => onChange(product.sku, event.target.checked)}
                  aria-describedby={reasonsId}
                />
                <span className="font-medium">{t("confirmProduct", { product: productLabel(product) })}</span>
              </label>
              <p id={reasonsId} className="pl-7 text-amber-900 md:pl-6">
                {describeGuardReasons(product.reasons, t, format)}
              </p>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
