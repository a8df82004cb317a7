export { ShippingPage as default, shippingPageMetadata as generateMetadata } from "@/features/shipping/pages/shipping-page";
