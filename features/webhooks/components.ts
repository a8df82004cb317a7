// The webhooks feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { ConnectionHealthPanel } from "./components/connection-health";
export { LiveUpdates } from "./live/components/live-updates";
export { WebhooksPage, webhooksPageMetadata } from "./components/webhooks-page";
export { EventsPage, eventsPageMetadata } from "./components/events-page";
export { EventPage, eventPageMetadata } from "./components/event-page";
