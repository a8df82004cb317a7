export { InvitePage as default, invitePageMetadata as generateMetadata } from "@/features/people/pages/invite-page";
