import { listRoute } from "@/lib/data/list-route.server";
import { listPricesForSeller } from "@/lib/data/prices.server";
import { pricesSchema } from "@/lib/prices/price-filters";

// The prices table's data: the shop's prices, through the platform adapter.
export const GET = listRoute("prices.view", pricesSchema.parse, listPricesForSeller);
