export { CostsPage as default, costsPageMetadata as generateMetadata } from "@/features/prices/pages/costs-page";
