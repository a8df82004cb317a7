export { OrdersPage as default, ordersPageMetadata as generateMetadata } from "@/features/orders/pages/orders-page";
