export { NewSkuPage as default, newSkuPageMetadata as generateMetadata } from "@/features/skus/pages/new-sku-page";
