export { NewSkuPage as default, newSkuPageMetadata as generateMetadata } from "@/features/skus/components";
