import "server-only";
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { z } from "zod";
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

// A challenge is handed out without a row: this browser's httpOnly cookie carries it sealed, with
// its purpose, expiry and whom it is for, so asking for options (which anyone may) writes nothing.
// An answer that verifies then records it used, and only the first can (claimChallenge): a row is
// written per successful answer, never per request. The functions taking the sealed value are the
// flows; those reading the cookie are thin wrappers.

export const PASSKEY_PROVIDER_ID = "passkey";
export const PASSKEY_CHALLENGE_COOKIE = "passkey-challenge";
const CHALLENGE_LIFETIME_MS = 5 * 60_000;
// A used challenge's row outlives the challenge by this much, so an instance whose clock runs
// behind the one that clears rows cannot accept it again.
const USED_CHALLENGE_KEPT_MS = 60_000;

const passkeyPurposeSchema = z.enum(["register", "add", "authenticate"]);
export type PasskeyPurpose = z.infer<typeof passkeyPurposeSchema>;

/** The public origin: a passkey made for it works nowhere else. */
export function relyingParty(): { id: string; origin: string } {
  const url = new URL(env.PUBLIC_BASE_URL);
  return { id: url.hostname, origin: url.origin };
}

// Asked for, not demanded: a security key without a PIN still works. (Sign-in has no username, so
// every passkey is made discoverable.)
const USER_VERIFICATION = "preferred" as const;

/** Whom a challenge is for. */
export type ChallengeTarget =
  | { purpose: "authenticate" }
  /** `personId` is the id the new person will have (their passkey's user handle). */
  | { purpose: "register"; personId: string; invite: string }
  | { purpose: "add"; personId: string };

export interface IssuedChallenge {
  /** What the browser's cookie holds. */
  sealed: string;
  /** base64url, as clientDataJSON returns it. */
  challenge: string;
}

const openedChallengeSchema = z.object({
  purpose: passkeyPurposeSchema,
  challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** Milliseconds since the epoch. */
  expiresAt: z.number().int(),
  personId: z.string().min(1).max(64).nullable(),
  /** The SHA-256 of the invitation's token ("register"). */
  invitation: z.string().nullable(),
});
export type OpenedChallenge = z.infer<typeof openedChallengeSchema>;

// A key of its own, derived from AUTH_SECRET (Auth.js derives its keys from it too, with other labels).
const sealKey = Buffer.from(hkdfSync("sha256", env.AUTH_SECRET, "", "dashboard passkey challenge cookie v1", 32));
const sealOf = (body: string) => createHmac("sha256", sealKey).update(body).digest("base64url");
const hashInvite = (invite: string) => createHash("sha256").update(invite).digest("base64url");

/**
 * Nothing is stored. Sealed means signed, not hidden: all it holds is in the options the browser
 * gets anyway, but no one can change a word of it without this server's key.
 */
export function issueChallenge(target: ChallengeTarget, now = new Date()): IssuedChallenge {
  const challenge = randomBytes(32).toString("base64url");
  const content: OpenedChallenge = {
    purpose: target.purpose,
    challenge,
    expiresAt: now.getTime() + CHALLENGE_LIFETIME_MS,
    personId: target.purpose === "authenticate" ? null : target.personId,
    invitation: target.purpose === "register" ? hashInvite(target.invite) : null,
  };
  const body = Buffer.from(JSON.stringify(content)).toString("base64url");
  return { sealed: `${body}.${sealOf(body)}`, challenge };
}

/** Null unless this server sealed it, for `purpose`, and it has not expired. It may still have been used: see claimChallenge. */
export function openChallenge(sealed: string, purpose: PasskeyPurpose, now = new Date()): OpenedChallenge | null {
  const [body, seal, ...rest] = sealed.split(".");
  if (body === undefined || seal === undefined || rest.length > 0) return null;
  const given = Buffer.from(seal);
  const expected = Buffer.from(sealOf(body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const opened = openedChallengeSchema.safeParse(content);
  if (!opened.success || opened.data.purpose !== purpose || opened.data.expiresAt <= now.getTime()) return null;
  return opened.data;
}

/**
 * True for the first answer only: the row's key is the challenge's hash, so of two inserts (racing
 * or not) one lands. Call it once the answer has verified, so that only those write.
 */
export async function claimChallenge(opened: OpenedChallenge, now = new Date()): Promise<boolean> {
  await db.passkeyChallenge.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - USED_CHALLENGE_KEPT_MS) } } });
  const { count } = await db.passkeyChallenge.createMany({
    data: {
      id: createHash("sha256").update(opened.challenge).digest("base64url"),
      challenge: opened.challenge,
      purpose: opened.purpose,
      personId: opened.personId,
      expiresAt: new Date(opened.expiresAt),
    },
    // INSERT … ON CONFLICT DO NOTHING.
    skipDuplicates: true,
  });
  return count === 1;
}

const challengeCookie = () => ({
  name: PASSKEY_CHALLENGE_COOKIE,
  httpOnly: true,
  sameSite: "strict" as const,
  path: "/",
  secure: new URL(env.PUBLIC_BASE_URL).protocol === "https:",
});

/** A new one replaces this browser's last. */
export async function startPasskeyChallenge(target: ChallengeTarget): Promise<string> {
  const issued = issueChallenge(target);
  (await cookies()).set({ ...challengeCookie(), value: issued.sealed, maxAge: CHALLENGE_LIFETIME_MS / 1000 });
  return issued.challenge;
}

/** Forgets the cookie: an answer gets one try from this browser. */
async function takeChallengeCookie(): Promise<string | null> {
  const jar = await cookies();
  const sealed = jar.get(PASSKEY_CHALLENGE_COOKIE)?.value;
  if (!sealed) return null;
  jar.set({ ...challengeCookie(), value: "", maxAge: 0 });
  return sealed;
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

export async function additionalPasskeyOptions(
  person: { id: string; name: string },
  rpName: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const exclude = await db.passkey.findMany({ where: { personId: person.id }, select: { id: true, transports: true } });
  const challenge = await startPasskeyChallenge({ purpose: "add", personId: person.id });
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
  const sealedChallenge = await takeChallengeCookie();
  if (!sealedChallenge) {
    logRefusal("sign-in", new Refused("no challenge cookie"));
    return null;
  }
  return signInWithPasskey(sealedChallenge, credentials, { userAgent: request?.headers.get("user-agent") });
}

export type AddPasskeyOutcome = { ok: true; passkey: PasskeySummaryJSON } | { ok: false; error: PasskeyRefusal };

export async function addPasskeyWithChallenge(
  sealedChallenge: string,
  personId: string,
  answer: RegistrationResponseJSON,
  options: { name?: string; userAgent?: string | null; now?: Date } = {},
): Promise<AddPasskeyOutcome> {
  const now = options.now ?? new Date();
  const challenge = openChallenge(sealedChallenge, "add", now);
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
  if (!(await claimChallenge(challenge, now))) {
    logRefusal("adding", new Refused("challenge already used"));
    return { ok: false, error: "challenge" };
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
  const sealedChallenge = await takeChallengeCookie();
  if (!sealedChallenge) return { ok: false, error: "challenge" };
  return addPasskeyWithChallenge(sealedChallenge, personId, answer, options);
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
