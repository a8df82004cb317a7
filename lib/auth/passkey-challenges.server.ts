import "server-only";
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { z } from "zod";
import { db } from "@/lib/db.server";
import { env } from "@/lib/env";

// A challenge is handed out without a row: this browser's httpOnly cookie carries it sealed, with
// its purpose, expiry and whom it is for, so asking for options (which anyone may) writes nothing.
// An answer that verifies then records it used, and only the first can (claimChallenge): a row is
// written per successful answer, never per request. The functions taking the sealed value are the
// flows; those reading the cookie are thin wrappers.

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
export const hashInvite = (invite: string) => createHash("sha256").update(invite).digest("base64url");

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
export async function takeChallengeCookie(): Promise<string | null> {
  const jar = await cookies();
  const sealed = jar.get(PASSKEY_CHALLENGE_COOKIE)?.value;
  if (!sealed) return null;
  jar.set({ ...challengeCookie(), value: "", maxAge: 0 });
  return sealed;
}
