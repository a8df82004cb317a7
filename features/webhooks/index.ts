// The webhooks feature's entry: receiving the platform's notifications, processing them, telling
// open pages (live), reconciling what none told (sync), and the event log. The processes start its
// background work from ./instance.server.ts and ./worker.server.ts directly.
export { getConnectionHealth } from "./connection-health.server";
export { eventsSchema } from "./events/event-filters";
export { listWebhookEvents, recentWebhookEvents } from "./events/webhook-events.server";
export { openShopLiveStream } from "./live/live-stream.server";
export { latestLiveMessageId } from "./live/live.server";
export { answerWebhookDelivery } from "./receive/delivery.server";
export type { ConnectionHealth } from "./connection-health.server";
export { eventSubject } from "./events/event-rows";
export type { WebhookEventRow } from "./events/event-rows";
