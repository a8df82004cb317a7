// Notifications outside the page (issue 41): the fan-out of each notification into e-mail (and
// push), the outbox that sends them, and one-click unsubscribe. Server code, no React. The
// processes start the delivery loop from here (the worker imports ./delivery.server directly: this
// entry also carries route handlers, which load Auth.js).
export { notificationDelivery } from "./delivery.server";
export { unsubscribeGetRoute, unsubscribePostRoute } from "./unsubscribe-route.server";
export { registerPushRoute, removePushRoute } from "./push/subscriptions.server";
export { queueInvitationEmail } from "./mail/invitation-mail.server";
export { emailChannelOn } from "./channels.server";
export { testClockRoute } from "./test-clock-route.server";
