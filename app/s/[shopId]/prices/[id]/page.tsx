export { PricePage as default, pricePageMetadata as generateMetadata } from "@/features/prices/pages/price-page";
