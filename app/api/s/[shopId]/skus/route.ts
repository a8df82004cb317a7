import { listRoute, local } from "@/lib/tables/list-route.server";
import { listSkus, skuCatalogueSchema } from "@/features/skus";

// The SKU catalogue table's data: the shop's SKUs only, from the local catalogue
// (the platform has no SKU list endpoint).
export const GET = listRoute("skus.view", skuCatalogueSchema.parse, (shop, filters) => local(listSkus(shop.id, filters)));
