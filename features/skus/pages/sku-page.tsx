import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getSku } from "@/features/skus/skus.server";
import { SkuStatusBadge } from "@/features/skus/components/sku-catalogue-table";
import { requireShop } from "@/lib/auth/session.server";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { getDisplayFormat } from "@/lib/format.server";
import { ShopLink } from "@/components/shop-link";
import { can } from "@/lib/people/roles";

export async function skuPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("skus.detail"))("metaTitle") };
}

export async function SkuPage({ params }: PageProps<"/s/[shopId]/skus/[id]">) {
  const access = await requireShop((await params).shopId, "skus.view");
  const shop = access.shop;
  const { id } = await params;
  if (!objectIdSchema.safeParse(id).success) notFound();
  const sku = await getSku(shop.id, id);
  if (!sku) notFound();
  const [t, format] = await Promise.all([getTranslations("skus"), getDisplayFormat()]);

  return (
    <section className="space-y-6">
      <ShopLink href="/skus" className="text-sm text-brand-700 hover:underline">
        {t("back")}
      </ShopLink>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{sku.code}</h1>
          <p className="mt-1 text-zinc-700">{sku.title}</p>
        </div>
        {/* SKUs cannot be modified; a change is a new SKU (spec: SKU and price immutability). */}
        {can(access.role, "skus.change") ? (
          <ShopLink
            href={`/skus/new?from=${sku.id}`}
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900"
          >
            {t("detail.newVersion")}
          </ShopLink>
        ) : null}
      </div>

      <dl className="grid gap-x-6 gap-y-3 rounded-lg border border-zinc-200 bg-white p-6 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-zinc-600">{t("detail.id")}</dt>
        <dd className="font-mono">{sku.id}</dd>
        <dt className="text-zinc-600">{t("detail.status")}</dt>
        <dd>
          <SkuStatusBadge status={sku.status} />
        </dd>
        <dt className="text-zinc-600">{t("detail.created")}</dt>
        <dd>
          <time dateTime={sku.createdAt}>{format.date(sku.createdAt)}</time>
        </dd>
        <dt className="text-zinc-600">{t("detail.confirmed")}</dt>
        <dd>
          {sku.confirmedAt ? (
            <time dateTime={sku.confirmedAt}>{format.date(sku.confirmedAt)}</time>
          ) : (
            <span className="text-zinc-600">{t("detail.notConfirmed")}</span>
          )}
        </dd>
        <dt className="text-zinc-600">{t("detail.importToken")}</dt>
        <dd className="font-mono break-all">{sku.importToken ?? "—"}</dd>
      </dl>

      <div className="space-y-2">
        <h2 className="text-lg font-medium">{t("detail.payload")}</h2>
        {/* Focusable, so the keyboard can scroll what is wider than the screen. */}
        <pre
          tabIndex={0}
          data-testid="sku-payload"
          className="overflow-x-auto rounded-lg border border-zinc-200 bg-white p-4 font-mono text-xs"
        >
          {sku.payload === null ? t("detail.payloadUnreadable") : JSON.stringify(sku.payload, null, 2)}
        </pre>
      </div>
    </section>
  );
}
