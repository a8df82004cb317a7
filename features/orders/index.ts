// The orders feature's entry (docs/decisions/0017-feature-slices.md): the list and an order's page,
// read from the platform, and the CSV export. Shipping reads the orders it picks through ordersByIds,
// without their customers for a role that does not see them.
export { ordersSchema } from "./order-filters";
export { listOrdersForShop, ordersByIds } from "./orders.server";
export { ordersExportResponse } from "./export-route.server";
export { withoutCustomerData } from "./mask-document";
