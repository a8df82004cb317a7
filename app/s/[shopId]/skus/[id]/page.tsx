export { SkuPage as default, skuPageMetadata as generateMetadata } from "@/features/skus/pages/sku-page";
