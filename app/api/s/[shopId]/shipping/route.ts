import { listRoute, local } from "@/lib/tables/list-route.server";
import { listShippingOrders, shippingSchema } from "@/features/shipping";
import { can } from "@/lib/people/roles";

// The shipping table's data: the shop's orders to ship with their packing stages, from the
// dashboard's own database (the order mirror), never the platform. A role that does not see
// customers gets rows without their names (decision 0010).
export const GET = listRoute("orders.view", shippingSchema.parse, (shop, filters, access) =>
  local(listShippingOrders(shop, filters, { seesCustomers: can(access.role, "orders.customerData") })),
);
