import { listRoute } from "@/lib/data/list-route";
import { listPricesForSeller } from "@/lib/data/prices";
import { pricesSchema } from "@/lib/prices/price-filters";

// The prices table's data: the signed-in seller's prices, through the platform adapter.
export const GET = listRoute(pricesSchema.parse, listPricesForSeller);
