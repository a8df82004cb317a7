export { MembersPage as default, membersPageMetadata as generateMetadata } from "@/features/people/components";
