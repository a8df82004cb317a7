import { listRoute } from "@/lib/data/list-route.server";
import { listOrdersForSeller } from "@/lib/data/orders.server";
import { ordersSchema } from "@/lib/orders/order-filters";

// The orders table's data. The browser calls this, never the platform; the person and
// their role are authorised here, and the platform only ever sees this seller's token.
export const GET = listRoute("orders.view", ordersSchema.parse, listOrdersForSeller);
