// The webhooks feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { ConnectionHealthPanel } from "./components/connection-health";
export { EventLogTable } from "./components/event-log-table";
export { ProcessAgainButton, ProcessAllDeadButton, RotateReceiverButton } from "./components/webhook-action-buttons";
export { WebhookSettings } from "./components/webhook-settings";
export { LiveUpdates } from "./live/components/live-updates";
