export { OrderPage as default, orderPageMetadata as generateMetadata } from "@/features/orders/pages/order-page";
