// The people feature's components for the app's pages (docs/decisions/0017-feature-slices.md): kept
// apart from ./index.ts so that route handlers and background work importing the feature load no React.
export { InviteForm } from "./components/invite-form";
export { MemberControls, RevokeInvitation } from "./components/member-controls";
export { PasskeyList } from "./components/passkey-list";
export { PasskeyRegister } from "./components/passkey-register";
