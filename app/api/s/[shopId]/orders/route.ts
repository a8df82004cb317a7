import { listRoute } from "@/lib/tables/list-route.server";
import { listOrdersForShop, ordersSchema } from "@/features/orders";

// The orders table's data. The browser calls this, never the platform; the person and
// their role are authorised here, and the platform only ever sees this seller's token.
export const GET = listRoute("orders.view", ordersSchema.parse, listOrdersForShop);
