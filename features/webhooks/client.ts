// What the app's shell and other features' client code may import from webhooks: the live updates
// every shop page listens to. Kept apart from ./components.ts, whose pages would otherwise come along.
export { LiveUpdates } from "./live/components/live-updates";
