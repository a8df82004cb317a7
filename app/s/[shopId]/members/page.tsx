export { MembersPage as default, membersPageMetadata as generateMetadata } from "@/features/people/pages/members-page";
