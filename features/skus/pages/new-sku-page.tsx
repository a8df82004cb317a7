import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { emptySkuFormState } from "@/features/skus/empty-rows";
import { getSku } from "@/features/skus/skus.server";
import { skuToFormState } from "@/features/skus/sku-form";
import { SkuForm } from "@/features/skus/components/sku-form";
import type { SkuFormState } from "@/features/skus/sku-form-state";
import { requireShop } from "@/lib/auth/session.server";
import { requiredScopesFor } from "@marketplace/api/client";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import { ShopLink } from "@/components/shop-link";

export async function newSkuPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("skus"))("newSku") };
}

/**
 * A new SKU, or with `?from=<id>` a new version of one: SKUs cannot be changed, so a change is a
 * new SKU pre-filled from the stored request body (spec: SKU and price immutability).
 */
export async function NewSkuPage({ params, searchParams }: PageProps<"/s/[shopId]/skus/new">) {
  const access = await requireShop((await params).shopId, "skus.change");
  const shop = access.shop;
  const { from } = await searchParams;
  const fromId = typeof from === "string" && from !== "" ? from : null;
  const t = await getTranslations("skus");

  let initial: SkuFormState = emptySkuFormState();
  let source: { id: string; code: string } | null = null;
  let notice: "sourceUnreadable" | "sourceNotFound" | null = null;
  if (fromId) {
    const stored = await getSku(shop.id, fromId);
    const payload = stored ? skuCreateSchema.safeParse(stored.payload) : null;
    if (stored && payload?.success) {
      initial = skuToFormState(payload.data);
      source = { id: stored.id, code: stored.code };
    } else {
      notice = stored ? "sourceUnreadable" : "sourceNotFound";
    }
  }

  const missing = requiredScopesFor("createSku").filter((scope) => shop.connection.scopesMissing.includes(scope));

  return (
    <section className="space-y-6">
      <ShopLink href="/skus" className="text-sm text-brand-700 hover:underline">
        {t("back")}
      </ShopLink>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{source ? t("newVersionOf", { code: source.code }) : t("newSku")}</h1>
        <p className="mt-1 text-sm text-zinc-600">{source ? <PrefilledFrom id={source.id} /> : t("new.requiredFields")}</p>
      </div>
      {notice ? (
        <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {t(`new.${notice}`)}
        </p>
      ) : null}
      {shop.connection.needsReconnect ? (
        <ProblemNotice problem={{ kind: "reconnect" }} feature="creatingSkus" />
      ) : missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="creatingSkus" />
      ) : null}
      <SkuForm key={source?.id ?? "new"} initial={initial} />
    </section>
  );
}

/** "Pre-filled from <id>", linking to the SKU the form started from. */
function PrefilledFrom({ id }: { id: string }) {
  const t = useTranslations("skus.new");
  return t.rich("prefilled", {
    id,
    link: (chunks) => (
      <ShopLink href={`/skus/${id}`} className="font-mono text-brand-700 hover:underline">
        {chunks}
      </ShopLink>
    ),
  });
}
