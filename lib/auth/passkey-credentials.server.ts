import "server-only";
import { randomBytes } from "node:crypto";
import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { PublicKeyCredentialCreationOptionsJSON, WebAuthnCredential } from "@simplewebauthn/server";
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { registrationResponseSchema } from "@/lib/auth/passkey-contract";
import type { PasskeySummaryJSON } from "@/lib/auth/passkey-contract";
import { relyingParty } from "@/lib/auth/passkey-challenges.server";
import { Refused } from "@/lib/auth/passkey-refusals.server";

// What signing in, joining and adding a passkey share: the registration options, checking an
// answer, the row a credential is kept in.

// Asked for, not demanded: a security key without a PIN still works. (Sign-in has no username, so
// every passkey is made discoverable.)
export const USER_VERIFICATION = "preferred" as const;

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

export async function verifiedCredential(answer: unknown, expectedChallenge: string): Promise<WebAuthnCredential> {
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

export function passkeyRow(personId: string, credential: WebAuthnCredential, name: string) {
  return {
    id: credential.id,
    personId,
    publicKey: credential.publicKey,
    counter: BigInt(credential.counter),
    transports: (credential.transports ?? []).join(" "),
    name,
  };
}

export function storedCredential(passkey: { id: string; publicKey: Uint8Array; counter: bigint; transports: string }): WebAuthnCredential {
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

export function summary(row: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }): PasskeySummaryJSON {
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
