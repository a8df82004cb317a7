import { getCurrentSeller } from "@/lib/auth/session";
import { listOrdersForSeller } from "@/lib/data/orders";
import { orderFiltersFromSearchParams } from "@/lib/orders/order-filters";
import { problemResponse } from "@/lib/data/problem-response";

// The orders table's data. The browser calls this, never the platform; the seller is
// authorised here, and the platform only ever sees this seller's token.
export async function GET(request: Request) {
  const seller = await getCurrentSeller();
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });

  const filters = orderFiltersFromSearchParams(new URL(request.url).searchParams);
  if (!filters.success) {
    const issue = filters.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  const result = await listOrdersForSeller(seller, filters.data);
  if (!result.ok) return problemResponse(result.problem);
  return Response.json(result.data, { headers: { "cache-control": "private, no-store" } });
}
