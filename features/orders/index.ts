export { OrderDetails } from "./components/order-details";
export { OrdersTable } from "./components/orders-table";
export { exportHead, exportLines } from "./export-csv";
export type { ExportSettings } from "./export-csv";
export { redactCustomerData } from "./mask-document";
export { ordersSchema } from "./order-filters";
export { exportOrderPages } from "./orders-export.server";
export { getOrderForSeller, listOrdersForSeller } from "./orders.server";
export { ordersByIds } from "./orders.server";
