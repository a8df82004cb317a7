import "server-only";
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON, WebAuthnCredential } from "@simplewebauthn/server";
import type { PasskeyRefusal, PasskeySummaryJSON } from "@/lib/auth/passkey-contract";
import { claimChallenge, openChallenge, startPasskeyChallenge, takeChallengeCookie } from "@/lib/auth/passkey-challenges.server";
import {
  buildRegistrationOptions,
  passkeyNameFromUserAgent,
  passkeyRow,
  summary,
  verifiedCredential,
} from "@/lib/auth/passkey-credentials.server";
import { logRefusal, Refused } from "@/lib/auth/passkey-refusals.server";
import { db } from "@/lib/db.server";
import { Prisma } from "@/lib/generated/prisma/client";

// A signed-in person's passkeys on the account page: another one, the list, removing one.

export async function additionalPasskeyOptions(
  person: { id: string; name: string },
  rpName: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const exclude = await db.passkey.findMany({ where: { personId: person.id }, select: { id: true, transports: true } });
  const challenge = await startPasskeyChallenge({ purpose: "add", personId: person.id });
  return buildRegistrationOptions({ challenge, personId: person.id, name: person.name, rpName, exclude });
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
