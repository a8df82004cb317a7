export { BulkPricesPage as default, bulkPricesPageMetadata as generateMetadata } from "@/features/prices/pages/bulk-prices-page";
