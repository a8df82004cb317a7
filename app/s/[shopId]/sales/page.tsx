export { SalesPage as default, salesPageMetadata as generateMetadata } from "@/features/sales/pages/sales-page";
