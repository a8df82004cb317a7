import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { CostCsvUpload } from "@/features/prices/costs/components/cost-csv-upload";
import { PricesTabs } from "@/features/prices/components/prices-tabs";
import { requireShop } from "@/lib/auth/session.server";

export async function costsPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prices"))("costs.title") };
}

// The file as a pt-BR spreadsheet saves it: semicolons, a decimal comma.
const EXAMPLE = `sku;cost
CAM-001;19,90
TEN-002;"145,00"
CAF-001;80`;

// Costs are the dashboard's own (the platform has none), so nothing is sent to the marketplace.
export async function CostsPage({ params }: PageProps<"/s/[shopId]/prices/costs">) {
  await requireShop((await params).shopId, "costs.change");
  const t = await getTranslations("prices.costs");
  const code = (chunks: React.ReactNode) => <code className="font-mono">{chunks}</code>;
  return (
    <section className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <PricesTabs current="costs" />
      </div>
      <div className="grid gap-6 text-sm text-zinc-700 md:grid-cols-2">
        <div className="space-y-2">
          <p>{t("intro")}</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>{t.rich("columns.sku", { code })}</li>
            <li>{t.rich("columns.cost", { code })}</li>
          </ul>
          <p>{t.rich("rules", { code })}</p>
        </div>
        <figure className="space-y-1">
          <figcaption className="font-medium">{t("example")}</figcaption>
          <pre className="overflow-x-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs">{EXAMPLE}</pre>
        </figure>
      </div>
      <CostCsvUpload />
    </section>
  );
}
