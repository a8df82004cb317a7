// A shop's sales for a period against the one before it (issue 42). Server code, no React.
export { salesReport } from "@/features/sales/sales.server";
export type { SalesReport } from "@/features/sales/sales.server";
export { salesExportResponse } from "@/features/sales/export-route.server";
