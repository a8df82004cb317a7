import { listRoute, local } from "@/lib/tables/list-route.server";
import { listShippingOrders, shippingSchema } from "@/features/shipping";

// The shipping table's data: the shop's orders to ship with their packing stages, from the
// dashboard's own database (the order mirror), never the platform.
export const GET = listRoute("orders.view", shippingSchema.parse, (shop, filters) => local(listShippingOrders(shop, filters)));
