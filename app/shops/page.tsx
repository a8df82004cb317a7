export { ShopsPage as default, shopsPageMetadata as generateMetadata } from "@/features/shops/pages/shops-page";
