import { getCurrentSeller } from "@/lib/auth/session";
import { listSkus } from "@/lib/data/skus";
import { skuCatalogueFiltersFromSearchParams } from "@/lib/skus/catalogue-filters";

// The SKU catalogue table's data: the signed-in seller's SKUs only, from the local catalogue
// (the platform has no SKU list endpoint).
export async function GET(request: Request) {
  const seller = await getCurrentSeller();
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });

  const filters = skuCatalogueFiltersFromSearchParams(new URL(request.url).searchParams);
  if (!filters.success) {
    const issue = filters.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  return Response.json(await listSkus(seller.id, filters.data), { headers: { "cache-control": "private, no-store" } });
}
