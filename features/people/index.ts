// The people feature's entry: the team page (members, roles, invite links) and the passkeys on the
// account page. Signing in and joining through a link are the kernel's (lib/auth/, lib/people/).
export { addPasskey, additionalPasskeyOptions, removePasskey } from "./passkeys.server";
