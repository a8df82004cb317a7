// The orders feature's entry (docs/decisions/0017-feature-slices.md): the list and an order's page,
// read from the platform, and the CSV export. Shipping reads the orders it picks through ordersByIds.
export { exportHead, exportLines } from "./export-csv";
export type { ExportSettings } from "./export-csv";
export { redactCustomerData } from "./mask-document";
export { ordersSchema } from "./order-filters";
export { exportOrderPages } from "./orders-export.server";
export { getOrderForShop, listOrdersForShop } from "./orders.server";
export { ordersByIds } from "./orders.server";
