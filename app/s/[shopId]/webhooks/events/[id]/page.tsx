export { EventPage as default, eventPageMetadata as generateMetadata } from "@/features/webhooks/pages/event-page";
