// What the browser and the server say to each other about passkeys (browser-safe): the request
// bodies of /api/passkeys and /api/passkeys/options, the sign-in action's input, and the shapes of
// the browser's WebAuthn answers. The server parses every one of them with these schemas; the
// components and the invite form use the same ones.
import { z } from "zod";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";

const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/);

/** A person's name as they type it when joining through an invitation. */
export const PERSON_NAME_MAX = 80;
export const personNameSchema = z.string().trim().min(1).max(PERSON_NAME_MAX);

/** An invite link's token (lib/data/people.ts makes 32 characters of base64url). */
export const inviteTokenSchema = base64url.min(16).max(128);

/** A passkey's label, as the person names it (or the browser's name, by default). */
export const passkeyNameSchema = z.string().trim().min(1).max(60);

export const passkeyOptionsRequestSchema = z.discriminatedUnion("purpose", [
  /** Sign-in with any passkey of this site: public. */
  z.object({ purpose: z.literal("authenticate") }),
  /** A new person's first passkey, through an open invitation: public. */
  z.object({ purpose: z.literal("register"), invite: inviteTokenSchema, name: personNameSchema }),
  /** Another passkey for the signed-in person. */
  z.object({ purpose: z.literal("add") }),
]);
export type PasskeyOptionsRequest = z.input<typeof passkeyOptionsRequestSchema>;

// A credential id is at most 1023 bytes (WebAuthn L3 §5.1); a "none" attestation or an assertion
// is a few hundred bytes; a certificate chain a few kilobytes. Anything far larger is not an answer.
const credentialId = base64url.min(1).max(1366);
const field = base64url.max(16_384);
/** A passkey's id: its credential id, base64url. */
export const passkeyIdSchema = credentialId;
/** The largest browser answer accepted, as the JSON text the sign-in action carries. */
export const MAX_RESPONSE_CHARS = 65_536;

export const registrationResponseSchema: z.ZodType<RegistrationResponseJSON> = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: field,
    attestationObject: field,
    authenticatorData: field.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: field.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  // Extension outputs are not used here: dropped, whatever the browser sent.
  clientExtensionResults: z.unknown().transform(() => ({})),
});

export const authenticationResponseSchema: z.ZodType<AuthenticationResponseJSON> = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: field,
    authenticatorData: field,
    signature: field,
    userHandle: field.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.unknown().transform(() => ({})),
});

/** POST /api/passkeys: the signed-in person's next passkey. */
export const addPasskeyRequestSchema = z.object({
  response: registrationResponseSchema,
  name: passkeyNameSchema.optional(),
});
export type AddPasskeyRequest = { response: RegistrationResponseJSON; name?: string };

/**
 * Where to go after signing in: a path of this site. "//host" and "/\host" are other sites to a
 * browser, so they are refused.
 */
export const sameSitePathSchema = z
  .string()
  .max(512)
  .refine((path) => path.startsWith("/") && !path.startsWith("//") && !path.includes("\\"), "must be a path of this site");

/** The passkey sign-in action's input: a new person's also carries the invitation and their name. */
export const passkeySignInInputSchema = z
  .object({
    /** The browser's answer, as JSON text (Auth.js passes credentials as form fields). */
    response: z.string().min(2).max(MAX_RESPONSE_CHARS),
    invite: inviteTokenSchema.optional(),
    name: personNameSchema.optional(),
    redirectTo: sameSitePathSchema.optional(),
  })
  .refine((input) => (input.invite === undefined) === (input.name === undefined), "an invitation needs a name, and a name an invitation");
export type PasskeySignInInput = z.input<typeof passkeySignInInputSchema>;

/** A passkey as the account page lists it. */
export interface PasskeySummaryJSON {
  id: string;
  /** Empty when the browser gave no name: the page shows a generic one. */
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Why POST or DELETE /api/passkeys refused (the `error` of its JSON body). */
export type PasskeyRefusal =
  /** The challenge is unknown, used, expired, or not this person's. */
  | "challenge"
  /** The browser's answer did not verify. */
  | "verification"
  /** This authenticator already holds a passkey of this site. */
  | "duplicate"
  /** The person's last way to sign in: removing it would lock them out. */
  | "last-way-in"
  | "not-found"
  | "invalid";

export type AddPasskeyAnswer = { passkey: PasskeySummaryJSON } | { error: PasskeyRefusal };
