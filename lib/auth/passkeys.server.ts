import "server-only";
import { randomBytes } from "node:crypto";
import { cookies } from "next/headers";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  WebAuthnCredential,
} from "@simplewebauthn/server";
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { authenticationResponseSchema, passkeySignInInputSchema, registrationResponseSchema } from "@/lib/auth/passkey-contract";
import type { PasskeyRefusal, PasskeySummaryJSON } from "@/lib/auth/passkey-contract";
import { db } from "@/lib/db.server";
import { recordAudit } from "@/lib/data/audit.server";
import { acceptInvitation, readInvitation } from "@/lib/data/people.server";
import { env } from "@/lib/env";
import { log } from "@/lib/log.server";
import { Prisma } from "@/lib/generated/prisma/client";

// A challenge is a database row handed to one browser in an httpOnly cookie and used once. The
// functions taking a challenge id are the flows; those reading the cookie are thin wrappers.

export const PASSKEY_PROVIDER_ID = "passkey";
export const PASSKEY_CHALLENGE_COOKIE = "passkey-challenge";
const CHALLENGE_LIFETIME_MS = 5 * 60_000;

export type PasskeyPurpose = "register" | "add" | "authenticate";

/** The public origin: a passkey made for it works nowhere else. */
export function relyingParty(): { id: string; origin: string } {
  const url = new URL(env.PUBLIC_BASE_URL);
  return { id: url.hostname, origin: url.origin };
}

// Asked for, not demanded: a security key without a PIN still works. (Sign-in has no username, so
// every passkey is made discoverable.)
const USER_VERIFICATION = "preferred" as const;

export interface IssuedChallenge {
  id: string;
  /** base64url, as clientDataJSON returns it. */
  challenge: string;
}

export interface TakenChallenge {
  challenge: string;
  personId: string | null;
}

/** Its id is what the browser's cookie holds. */
export async function createChallenge(purpose: PasskeyPurpose, personId: string | null = null, now = new Date()): Promise<IssuedChallenge> {
  const id = randomBytes(24).toString("base64url");
  const challenge = randomBytes(32).toString("base64url");
  // Unanswered challenges are cleared as new ones are handed out.
  await db.passkeyChallenge.deleteMany({ where: { expiresAt: { lt: now } } });
  await db.passkeyChallenge.create({
    data: { id, challenge, purpose, personId, expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS) },
  });
  return { id, challenge };
}

/** Deleted whatever happens next (DELETE … RETURNING), so of two racing answers only one gets it. */
export async function consumeChallenge(id: string, purpose: PasskeyPurpose, now = new Date()): Promise<TakenChallenge | null> {
  const rows = await db.$queryRaw<{ challenge: string; purpose: string; personId: string | null; expiresAt: Date }[]>`
    DELETE FROM "PasskeyChallenge" WHERE "id" = ${id} RETURNING "challenge", "purpose", "personId", "expiresAt"`;
  const row = rows[0];
  if (!row || row.purpose !== purpose || row.expiresAt.getTime() <= now.getTime()) return null;
  return { challenge: row.challenge, personId: row.personId };
}

const challengeCookie = () => ({
  name: PASSKEY_CHALLENGE_COOKIE,
  httpOnly: true,
  sameSite: "strict" as const,
  path: "/",
  secure: new URL(env.PUBLIC_BASE_URL).protocol === "https:",
});

/** A new one replaces this browser's last. */
export async function startPasskeyChallenge(purpose: PasskeyPurpose, personId?: string): Promise<string> {
  const issued = await createChallenge(purpose, personId ?? null);
  (await cookies()).set({ ...challengeCookie(), value: issued.id, maxAge: CHALLENGE_LIFETIME_MS / 1000 });
  return issued.challenge;
}

/** Forgets the cookie: an answer gets one try. */
async function takeChallengeCookie(): Promise<string | null> {
  const jar = await cookies();
  const id = jar.get(PASSKEY_CHALLENGE_COOKIE)?.value;
  if (!id) return null;
  jar.set({ ...challengeCookie(), value: "", maxAge: 0 });
  return id;
}

/** Made before the person exists: it is their passkey's user handle. Shaped like Prisma's cuid(). */
export function newPersonId(): string {
  return `c${randomBytes(12).toString("hex")}`;
}

export function buildRegistrationOptions(input: {
  challenge: string;
  personId: string;
  name: string;
  rpName: string;
  /** So an authenticator that holds one is not registered twice. */
  exclude?: { id: string; transports: string }[];
}): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: input.rpName,
    rpID: relyingParty().id,
    userID: isoUint8Array.fromUTF8String(input.personId),
    userName: input.name,
    userDisplayName: input.name,
    challenge: isoBase64URL.toBuffer(input.challenge),
    attestationType: "none",
    excludeCredentials: (input.exclude ?? []).map((passkey) => ({ id: passkey.id, transports: splitTransports(passkey.transports) })),
    // A fresh object each time: the library writes requireResidentKey into it.
    authenticatorSelection: { residentKey: "required", userVerification: USER_VERIFICATION },
  });
}

export function buildAuthenticationOptions(challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: relyingParty().id,
    challenge: isoBase64URL.toBuffer(challenge),
    allowCredentials: [],
    userVerification: USER_VERIFICATION,
  });
}

export async function signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return buildAuthenticationOptions(await startPasskeyChallenge("authenticate"));
}

/** Null when the invitation is not open. The person's id is chosen now and kept with the challenge. */
export async function invitationRegistrationOptions(input: {
  invite: string;
  name: string;
  rpName: string;
}): Promise<PublicKeyCredentialCreationOptionsJSON | null> {
  if ((await readInvitation(input.invite)).state !== "open") return null;
  const personId = newPersonId();
  const challenge = await startPasskeyChallenge("register", personId);
  return buildRegistrationOptions({ challenge, personId, name: input.name, rpName: input.rpName });
}

export async function additionalPasskeyOptions(
  person: { id: string; name: string },
  rpName: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const exclude = await db.passkey.findMany({ where: { personId: person.id }, select: { id: true, transports: true } });
  const challenge = await startPasskeyChallenge("add", person.id);
  return buildRegistrationOptions({ challenge, personId: person.id, name: person.name, rpName, exclude });
}

/** For the server's log only: the browser learns nothing. */
class Refused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "Refused";
  }
}

const passkeysLog = log.child({ component: "passkeys" });

function logRefusal(flow: string, error: unknown) {
  // One line, with the challenges and ids an error quotes left out.
  const reason =
    error instanceof Error
      ? error.message
          .split("\n")[0]!
          .replace(/[A-Za-z0-9_-]{20,}/g, "…")
          .slice(0, 200)
      : "unknown";
  passkeysLog.warn({ flow }, `passkey ${flow} refused: ${reason}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Refused("the answer is not JSON");
  }
}

/** With `invite` and `name`, a new person's first passkey. Null on any refusal, with no reason given. */
export async function signInWithPasskey(
  challengeId: string,
  credentials: unknown,
  context: { userAgent?: string | null; now?: Date } = {},
): Promise<{ id: string } | null> {
  const now = context.now ?? new Date();
  const input = passkeySignInInputSchema.safeParse(credentials);
  const registering = input.success && input.data.invite !== undefined;
  try {
    // Used up first: a challenge gets one try.
    const challenge = await consumeChallenge(challengeId, registering ? "register" : "authenticate", now);
    if (!input.success) throw new Refused("malformed credentials");
    if (!challenge) throw new Refused("no open challenge for this answer");
    const { response, invite, name } = input.data;
    if (invite === undefined || name === undefined) return await authenticate(challenge.challenge, parseJson(response), now);
    if (!challenge.personId) throw new Refused("a registration challenge without a person");
    return await joinWithNewPasskey({
      challenge: { challenge: challenge.challenge, personId: challenge.personId },
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

async function authenticate(expectedChallenge: string, answer: unknown, now: Date): Promise<{ id: string }> {
  const response = authenticationResponseSchema.safeParse(answer);
  if (!response.success) throw new Refused("malformed authentication answer");
  const passkey = await db.passkey.findUnique({ where: { id: response.data.id } });
  if (!passkey) throw new Refused("unknown credential");
  const userHandle = response.data.response.userHandle;
  if (userHandle && userHandle !== isoBase64URL.fromUTF8String(passkey.personId)) throw new Refused("user handle does not match");
  const { verified, authenticationInfo } = await verifyAuthenticationResponse({
    response: response.data,
    expectedChallenge,
    expectedOrigin: relyingParty().origin,
    expectedRPID: relyingParty().id,
    credential: storedCredential(passkey),
    requireUserVerification: false,
  });
  if (!verified) throw new Refused("assertion not verified");
  // Conditional on the counter read above, so of two replayed answers one is refused (synced passkeys stay at 0).
  const { count } = await db.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: BigInt(authenticationInfo.newCounter), lastUsedAt: now },
  });
  if (count !== 1) throw new Refused("counter moved meanwhile");
  return { id: passkey.personId };
}

async function joinWithNewPasskey(input: {
  challenge: { challenge: string; personId: string };
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
    sellerId: accepted.sellerId,
    person: { id: personId, name },
    action: "member.join",
    subject: name,
    after: { role: accepted.role },
  }).catch((error: unknown) => passkeysLog.error({ shopId: accepted.sellerId, err: error }, "could not record the join in the audit log"));
  return { id: personId };
}

/** The passkey provider's Credentials `authorize`. */
export async function verifyPasskeySignIn(
  credentials: Partial<Record<"response" | "name" | "invite", unknown>>,
  request?: Request,
): Promise<{ id: string } | null> {
  const challengeId = await takeChallengeCookie();
  if (!challengeId) {
    logRefusal("sign-in", new Refused("no challenge cookie"));
    return null;
  }
  return signInWithPasskey(challengeId, credentials, { userAgent: request?.headers.get("user-agent") });
}

export type AddPasskeyOutcome = { ok: true; passkey: PasskeySummaryJSON } | { ok: false; error: PasskeyRefusal };

export async function addPasskeyWithChallenge(
  challengeId: string,
  personId: string,
  answer: RegistrationResponseJSON,
  options: { name?: string; userAgent?: string | null; now?: Date } = {},
): Promise<AddPasskeyOutcome> {
  const challenge = await consumeChallenge(challengeId, "add", options.now);
  if (!challenge || challenge.personId !== personId) {
    logRefusal("adding", new Refused("no open challenge of this person"));
    return { ok: false, error: "challenge" };
  }
  let credential: WebAuthnCredential;
  try {
    credential = await verifiedCredential(answer, challenge.challenge);
  } catch (error) {
    logRefusal("adding", error);
    return { ok: false, error: "verification" };
  }
  // Checked first so the usual case logs nothing; the unique key decides a race.
  if (await db.passkey.findUnique({ where: { id: credential.id }, select: { id: true } })) return { ok: false, error: "duplicate" };
  try {
    const row = await db.passkey.create({
      data: passkeyRow(personId, credential, options.name ?? passkeyNameFromUserAgent(options.userAgent)),
      select: { id: true, name: true, createdAt: true, lastUsedAt: true },
    });
    return { ok: true, passkey: summary(row) };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return { ok: false, error: "duplicate" };
    throw error;
  }
}

export async function addPasskey(
  personId: string,
  answer: RegistrationResponseJSON,
  options: { name?: string; userAgent?: string | null } = {},
): Promise<AddPasskeyOutcome> {
  const challengeId = await takeChallengeCookie();
  if (!challengeId) return { ok: false, error: "challenge" };
  return addPasskeyWithChallenge(challengeId, personId, answer, options);
}

export async function listPasskeys(personId: string): Promise<PasskeySummaryJSON[]> {
  const rows = await db.passkey.findMany({
    where: { personId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
  });
  return rows.map(summary);
}

/** Refused for their last way in; the person row is locked while counting, so two removals cannot both pass. */
export async function removePasskey(personId: string, passkeyId: string): Promise<"removed" | "not-found" | "last-way-in"> {
  return db.$transaction(async (tx) => {
    const people = await tx.$queryRaw<{ marketplaceEmail: string | null }[]>`
      SELECT "marketplaceEmail" FROM "Person" WHERE "id" = ${personId} FOR UPDATE`;
    const person = people[0];
    if (!person) return "not-found";
    const passkey = await tx.passkey.findFirst({ where: { id: passkeyId, personId }, select: { id: true } });
    if (!passkey) return "not-found";
    if (person.marketplaceEmail === null && (await tx.passkey.count({ where: { personId } })) <= 1) return "last-way-in";
    await tx.passkey.delete({ where: { id: passkey.id } });
    return "removed";
  });
}

async function verifiedCredential(answer: unknown, expectedChallenge: string): Promise<WebAuthnCredential> {
  const response = registrationResponseSchema.safeParse(answer);
  if (!response.success) throw new Refused("malformed registration answer");
  const { verified, registrationInfo } = await verifyRegistrationResponse({
    response: response.data,
    expectedChallenge,
    expectedOrigin: relyingParty().origin,
    expectedRPID: relyingParty().id,
    requireUserVerification: false,
  });
  if (!verified) throw new Refused("registration not verified");
  return { ...registrationInfo.credential, transports: response.data.response.transports ?? registrationInfo.credential.transports };
}

function passkeyRow(personId: string, credential: WebAuthnCredential, name: string) {
  return {
    id: credential.id,
    personId,
    publicKey: credential.publicKey,
    counter: BigInt(credential.counter),
    transports: (credential.transports ?? []).join(" "),
    name,
  };
}

function storedCredential(passkey: { id: string; publicKey: Uint8Array; counter: bigint; transports: string }): WebAuthnCredential {
  return {
    id: passkey.id,
    publicKey: new Uint8Array(passkey.publicKey),
    counter: Number(passkey.counter),
    transports: splitTransports(passkey.transports),
  };
}

const splitTransports = (transports: string): AuthenticatorTransportName[] =>
  transports.split(" ").filter(Boolean) as AuthenticatorTransportName[];
type AuthenticatorTransportName = NonNullable<WebAuthnCredential["transports"]>[number];

function summary(row: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }): PasskeySummaryJSON {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

// "Chrome · Android": a user-agent parser would be a dependency for two words.
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\//, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Macintosh|Mac OS X/, "macOS"],
  [/Linux/, "Linux"],
];

export function passkeyNameFromUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return [browser, system].filter(Boolean).join(" · ");
}
