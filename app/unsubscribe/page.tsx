export { UnsubscribePage as default, unsubscribePageMetadata as generateMetadata } from "@/features/notifications/pages/unsubscribe-page";
