import "server-only";
import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { authenticationResponseSchema, passkeySignInInputSchema } from "@/lib/auth/passkey-contract";
import {
  claimChallenge,
  hashInvite,
  openChallenge,
  relyingParty,
  startPasskeyChallenge,
  takeChallengeCookie,
} from "@/lib/auth/passkey-challenges.server";
import type { OpenedChallenge } from "@/lib/auth/passkey-challenges.server";
import {
  buildRegistrationOptions,
  newPersonId,
  passkeyNameFromUserAgent,
  passkeyRow,
  storedCredential,
  USER_VERIFICATION,
  verifiedCredential,
} from "@/lib/auth/passkey-credentials.server";
import { logRefusal, parseJson, passkeysLog, Refused } from "@/lib/auth/passkey-refusals.server";
import { db } from "@/lib/db.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { acceptInvitation, readInvitation } from "@/lib/people/invitations.server";

// Signing in with a passkey, and joining a shop with a new one through an invite link: the passkey
// provider's `authorize` (lib/auth/auth.server.ts). Adding and removing passkeys is the account
// page's (features/people/passkeys.server.ts).

export const PASSKEY_PROVIDER_ID = "passkey";

export function buildAuthenticationOptions(challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: relyingParty().id,
    challenge: isoBase64URL.toBuffer(challenge),
    allowCredentials: [],
    userVerification: USER_VERIFICATION,
  });
}

export async function signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return buildAuthenticationOptions(await startPasskeyChallenge({ purpose: "authenticate" }));
}

/** Null when the invitation is not open. The person's id is chosen now and sealed with the challenge, as is the invitation. */
export async function invitationRegistrationOptions(input: {
  invite: string;
  name: string;
  rpName: string;
}): Promise<PublicKeyCredentialCreationOptionsJSON | null> {
  if ((await readInvitation(input.invite)).state !== "open") return null;
  const personId = newPersonId();
  const challenge = await startPasskeyChallenge({ purpose: "register", personId, invite: input.invite });
  return buildRegistrationOptions({ challenge, personId, name: input.name, rpName: input.rpName });
}

/** With `invite` and `name`, a new person's first passkey. Null on any refusal, with no reason given. */
export async function signInWithPasskey(
  sealedChallenge: string,
  credentials: unknown,
  context: { userAgent?: string | null; now?: Date } = {},
): Promise<{ id: string } | null> {
  const now = context.now ?? new Date();
  const input = passkeySignInInputSchema.safeParse(credentials);
  const registering = input.success && input.data.invite !== undefined;
  try {
    const challenge = openChallenge(sealedChallenge, registering ? "register" : "authenticate", now);
    if (!input.success) throw new Refused("malformed credentials");
    if (!challenge) throw new Refused("no open challenge for this answer");
    const { response, invite, name } = input.data;
    if (invite === undefined || name === undefined) return await authenticate(challenge, parseJson(response), now);
    if (challenge.invitation !== hashInvite(invite)) throw new Refused("a registration challenge for another invitation");
    if (!challenge.personId) throw new Refused("a registration challenge without a person");
    return await joinWithNewPasskey({
      challenge: { ...challenge, personId: challenge.personId },
      response: parseJson(response),
      invite,
      name,
      userAgent: context.userAgent,
      now,
    });
  } catch (error) {
    logRefusal(registering ? "registration" : "sign-in", error);
    return null;
  }
}

async function authenticate(challenge: OpenedChallenge, answer: unknown, now: Date): Promise<{ id: string }> {
  const response = authenticationResponseSchema.safeParse(answer);
  if (!response.success) throw new Refused("malformed authentication answer");
  const passkey = await db.passkey.findUnique({ where: { id: response.data.id } });
  if (!passkey) throw new Refused("unknown credential");
  const userHandle = response.data.response.userHandle;
  if (userHandle && userHandle !== isoBase64URL.fromUTF8String(passkey.personId)) throw new Refused("user handle does not match");
  const { verified, authenticationInfo } = await verifyAuthenticationResponse({
    response: response.data,
    expectedChallenge: challenge.challenge,
    expectedOrigin: relyingParty().origin,
    expectedRPID: relyingParty().id,
    credential: storedCredential(passkey),
    requireUserVerification: false,
  });
  if (!verified) throw new Refused("assertion not verified");
  // A synced passkey's counter stays at 0, so this, not the counter, is what refuses its answer sent twice.
  if (!(await claimChallenge(challenge, now))) throw new Refused("challenge already used");
  // Conditional on the counter read above, so of a cloned authenticator and its original answering at once, one is refused.
  const { count } = await db.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: BigInt(authenticationInfo.newCounter), lastUsedAt: now },
  });
  if (count !== 1) throw new Refused("counter moved meanwhile");
  return { id: passkey.personId };
}

async function joinWithNewPasskey(input: {
  challenge: OpenedChallenge & { personId: string };
  response: unknown;
  invite: string;
  name: string;
  userAgent?: string | null;
  now: Date;
}): Promise<{ id: string }> {
  const { invite, name, now } = input;
  const personId = input.challenge.personId;
  const invitation = await readInvitation(invite, now);
  if (invitation.state !== "open") throw new Refused(`invitation ${invitation.state}`);
  const credential = await verifiedCredential(input.response, input.challenge.challenge);
  if (!(await claimChallenge(input.challenge, now))) throw new Refused("challenge already used");
  await db.$transaction([
    db.person.create({ data: { id: personId, name } }),
    db.passkey.create({ data: passkeyRow(personId, credential, passkeyNameFromUserAgent(input.userAgent)) }),
  ]);
  // Someone may have used the link since it was read: then the person just made goes again.
  const accepted = await acceptInvitation(invite, personId, now);
  if (accepted.state !== "open") {
    await db.person.delete({ where: { id: personId } });
    throw new Refused(`invitation ${accepted.state} while joining`);
  }
  // The person has joined: a failed audit line must not fail the sign-in.
  await recordAudit({
    shopId: accepted.shopId,
    person: { id: personId, name },
    action: "member.join",
    subject: name,
    after: { role: accepted.role },
  }).catch((error: unknown) => passkeysLog.error({ shopId: accepted.shopId, err: error }, "could not record the join in the audit log"));
  return { id: personId };
}

/** The passkey provider's Credentials `authorize`. */
export async function verifyPasskeySignIn(
  credentials: Partial<Record<"response" | "name" | "invite", unknown>>,
  request?: Request,
): Promise<{ id: string } | null> {
  const sealedChallenge = await takeChallengeCookie();
  if (!sealedChallenge) {
    logRefusal("sign-in", new Refused("no challenge cookie"));
    return null;
  }
  return signInWithPasskey(sealedChallenge, credentials, { userAgent: request?.headers.get("user-agent") });
}
