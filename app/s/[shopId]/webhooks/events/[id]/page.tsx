export { EventPage as default, eventPageMetadata as generateMetadata } from "@/features/webhooks/components";
