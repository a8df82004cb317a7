export { PricesPage as default, pricesPageMetadata as generateMetadata } from "@/features/prices/pages/prices-page";
