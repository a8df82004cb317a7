export { InboxPage as default, inboxPageMetadata as generateMetadata } from "@/features/inbox/pages/inbox-page";
