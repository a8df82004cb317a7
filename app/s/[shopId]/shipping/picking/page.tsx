export { PickingPage as default, pickingPageMetadata as generateMetadata } from "@/features/shipping/pages/picking-page";
