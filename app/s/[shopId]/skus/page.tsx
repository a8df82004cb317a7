export { SkusPage as default, skusPageMetadata as generateMetadata } from "@/features/skus/pages/skus-page";
