// The PostgreSQL NOTIFY channels the instances announce on. A plain module, so that scripts that
// change the database behind a running dashboard (npm run dev's reset follower) announce on the
// same channels that lib/db-notifications.server.ts listens to.

/** Processed events' live messages (features/webhooks/live/live.server.ts). */
export const LIVE_CHANNEL = "live_messages";
/** A seller's receiver changed (token, key). */
export const RECEIVER_CHANGED_CHANNEL = "receiver_changed";
/** A person's sessions or memberships changed (payload: the person's id): their streams re-check. */
export const SESSIONS_CHANGED_CHANNEL = "sessions_changed";
/** The receiver queued events nobody claimed. */
export const WORK_CHANNEL = "webhook_work";
