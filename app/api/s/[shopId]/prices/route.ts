import { listRoute } from "@/lib/tables/list-route.server";
import { listPricesForShop, pricesSchema } from "@/features/prices";

// The prices table's data: the shop's prices, through the platform adapter.
export const GET = listRoute("prices.view", pricesSchema.parse, listPricesForShop);
