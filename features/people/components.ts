// The people feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { MembersPage, membersPageMetadata } from "./components/members-page";
export { AccountPage, accountPageMetadata } from "./components/account-page";
export { InvitePage, invitePageMetadata } from "./components/invite-page";
