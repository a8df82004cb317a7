import type { Metadata } from "next";
import Link from "next/link";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { SkuForm } from "@/components/skus/sku-form";
import { requireSeller } from "@/lib/auth/session";
import { getSku } from "@/lib/data/skus";
import { requiredScopesFor } from "@/lib/marketplace/client";
import { skuCreateSchema } from "@/lib/marketplace/schemas/sku";
import { emptySkuFormState, skuToFormState } from "@/lib/skus/sku-form";
import type { SkuFormState } from "@/lib/skus/sku-form";

export const metadata: Metadata = { title: "New SKU" };

/**
 * A new SKU, or with `?from=<id>` a new version of one: SKUs cannot be changed, so a change is a
 * new SKU pre-filled from the stored request body (spec: SKU and price immutability).
 */
export default async function NewSkuPage({ searchParams }: PageProps<"/skus/new">) {
  const seller = await requireSeller();
  const { from } = await searchParams;
  const fromId = typeof from === "string" && from !== "" ? from : null;

  let initial: SkuFormState = emptySkuFormState();
  let source: { id: string; code: string } | null = null;
  let notice: string | null = null;
  if (fromId) {
    const stored = await getSku(seller.id, fromId);
    const payload = stored ? skuCreateSchema.safeParse(stored.payload) : null;
    if (stored && payload?.success) {
      initial = skuToFormState(payload.data);
      source = { id: stored.id, code: stored.code };
    } else {
      notice = stored
        ? "The stored copy of that SKU could not be read, so the form starts empty."
        : "That SKU is not in your catalogue, so the form starts empty.";
    }
  }

  const missing = requiredScopesFor("createSku").filter((scope) => seller.connection.scopesMissing.includes(scope));

  return (
    <section className="space-y-6">
      <Link href="/skus" className="text-sm text-brand-700 hover:underline">
        ← SKUs
      </Link>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{source ? `New version of ${source.code}` : "New SKU"}</h1>
        <p className="mt-1 text-sm text-zinc-600">
          {source ? (
            <>
              Pre-filled from <Link href={`/skus/${source.id}`} className="font-mono text-brand-700 hover:underline">{source.id}</Link>.
              SKUs cannot be changed: sending this form creates a new SKU.
            </>
          ) : (
            "Fields marked * are required by the marketplace."
          )}
        </p>
      </div>
      {notice ? (
        <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
      {seller.connection.needsReconnect ? (
        <ProblemNotice problem={{ kind: "reconnect" }} feature="creating SKUs" />
      ) : missing.length > 0 ? (
        <ProblemNotice problem={{ kind: "missing_scope", scopes: missing }} feature="creating SKUs" />
      ) : null}
      <SkuForm key={source?.id ?? "new"} initial={initial} />
    </section>
  );
}
