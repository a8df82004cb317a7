export { InviteForm } from "./components/invite-form";
export { MemberControls, RevokeInvitation } from "./components/member-controls";
export { PasskeyList } from "./components/passkey-list";
export { PasskeyRegister } from "./components/passkey-register";
export { listPendingInvitations } from "./invitations.server";
export { addPasskey, additionalPasskeyOptions, listPasskeys, removePasskey } from "./passkeys.server";
export { listMembers } from "./team.server";
