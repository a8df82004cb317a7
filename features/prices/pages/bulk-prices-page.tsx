import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { BulkPriceUpload } from "@/features/prices/bulk/components/bulk-price-upload";
import { PricesTabs } from "@/features/prices/components/prices-tabs";
import { requireShop } from "@/lib/auth/session.server";
import { requiredScopesFor } from "@marketplace/api/client";

export async function bulkPricesPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prices"))("bulk.title") };
}

// A file as the parser reads it: the column names and types are the CSV's own words, in any language.
const EXAMPLE = `sku,type,value,currency
CAM-001,sell,49.90,BRL
CAM-001,list,59.90,BRL
TEN-002,sell,"279,90",BRL`;

export async function BulkPricesPage({ params }: PageProps<"/s/[shopId]/prices/bulk">) {
  const access = await requireShop((await params).shopId, "prices.change");
  const shop = access.shop;
  // The preview reads current prices (portfolio:read), applying creates prices (portfolio:write).
  const needed = [...new Set([...requiredScopesFor("listPrices"), ...requiredScopesFor("createPrice")])];
  const missing = needed.filter((scope) => shop.connection.scopesMissing.includes(scope));
  const t = await getTranslations("prices");
  const code = (chunks: React.ReactNode) => <code className="font-mono">{chunks}</code>;

  return (
    <section className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("bulk.title")}</h1>
        <PricesTabs current="bulk" />
      </div>

      <div className="grid gap-6 text-sm text-zinc-700 md:grid-cols-2">
        <div className="space-y-2">
          <p>{t("bulk.intro")}</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>{t.rich("bulk.columns.sku", { code })}</li>
            <li>{t.rich("bulk.columns.type", { code })}</li>
            <li>{t.rich("bulk.columns.value", { code })}</li>
            <li>{t.rich("bulk.columns.currency", { code })}</li>
          </ul>
          <p>{t.rich("bulk.rules", { code })}</p>
        </div>
        <figure className="space-y-1">
          <figcaption className="font-medium">{t("bulk.example")}</figcaption>
          <pre className="overflow-x-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs">{EXAMPLE}</pre>
          <p className="text-xs text-zinc-600">{t("bulk.slowNote")}</p>
        </figure>
      </div>

      {missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="bulkPriceUpdates" />
      ) : (
        <BulkPriceUpload shopId={shop.id} />
      )}
    </section>
  );
}
