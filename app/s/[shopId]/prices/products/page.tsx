export { PriceProductsPage as default, priceProductsPageMetadata as generateMetadata } from "@/features/prices/pages/price-products-page";
