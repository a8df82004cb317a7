// The orders feature's entry (docs/decisions/0017-feature-slices.md): the list and an order's page,
// read from the platform, and the CSV export. Shipping reads the orders it picks through ordersByIds.
export { ordersSchema } from "./order-filters";
export { listOrdersForShop, ordersByIds } from "./orders.server";
export { ordersExportResponse } from "./export-route.server";
