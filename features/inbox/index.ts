// The inbox (issue 41): a person's notifications across their shops. Server code, no React.
export { unreadCount } from "@/features/inbox/inbox.server";
export { inboxRoute } from "@/features/inbox/inbox-route.server";
