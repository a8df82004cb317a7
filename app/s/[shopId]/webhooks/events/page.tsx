export { EventsPage as default, eventsPageMetadata as generateMetadata } from "@/features/webhooks/pages/events-page";
