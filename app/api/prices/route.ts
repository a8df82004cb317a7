import { getCurrentSeller } from "@/lib/auth/session";
import { listPricesForSeller } from "@/lib/data/prices";
import { problemResponse } from "@/lib/data/problem-response";
import { priceFiltersFromSearchParams } from "@/lib/prices/price-filters";

// The prices table's data: the signed-in seller's prices, through the platform adapter.
export async function GET(request: Request) {
  const seller = await getCurrentSeller();
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });

  const filters = priceFiltersFromSearchParams(new URL(request.url).searchParams);
  if (!filters.success) {
    const issue = filters.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  const result = await listPricesForSeller(seller, filters.data);
  if (!result.ok) return problemResponse(result.problem);
  return Response.json(result.data, { headers: { "cache-control": "private, no-store" } });
}
