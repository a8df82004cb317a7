// The passkey wire contract, browser-safe: the server parses with these schemas, the forms use them too.
import { z } from "zod";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import { base64url, inviteTokenSchema, personNameSchema, sameSitePathSchema } from "@/lib/auth/sign-up-contract";

export const passkeyNameSchema = z.string().trim().min(1).max(60);

export const passkeyOptionsRequestSchema = z.discriminatedUnion("purpose", [
  /** Public. */
  z.object({ purpose: z.literal("authenticate") }),
  /** Public, with an open invitation. */
  z.object({ purpose: z.literal("register"), invite: inviteTokenSchema, name: personNameSchema }),
  /** Signed in. */
  z.object({ purpose: z.literal("add") }),
]);
export type PasskeyOptionsRequest = z.input<typeof passkeyOptionsRequestSchema>;

// A credential id is at most 1023 bytes (WebAuthn L3 §5.1) and an answer a few kilobytes at most.
const credentialId = base64url.min(1).max(1366);
const field = base64url.max(16_384);
export const passkeyIdSchema = credentialId;
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
  // Unused, so dropped whatever the browser sent.
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

export const addPasskeyRequestSchema = z.object({
  response: registrationResponseSchema,
  name: passkeyNameSchema.optional(),
});
export type AddPasskeyRequest = { response: RegistrationResponseJSON; name?: string };

export const passkeySignInInputSchema = z
  .object({
    /** JSON text: Auth.js passes credentials as form fields. */
    response: z.string().min(2).max(MAX_RESPONSE_CHARS),
    invite: inviteTokenSchema.optional(),
    name: personNameSchema.optional(),
    redirectTo: sameSitePathSchema.optional(),
  })
  .refine((input) => (input.invite === undefined) === (input.name === undefined), "an invitation needs a name, and a name an invitation");
export type PasskeySignInInput = z.input<typeof passkeySignInInputSchema>;

export interface PasskeySummaryJSON {
  id: string;
  /** Empty when the browser gave none. */
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The `error` of /api/passkeys' refusals. */
export type PasskeyRefusal =
  /** Unknown, used, expired, or not this person's. */
  | "challenge"
  | "verification"
  /** This authenticator already holds a passkey of this site. */
  | "duplicate"
  /** Removing it would lock the person out. */
  | "last-way-in"
  | "not-found"
  | "invalid";

export type AddPasskeyAnswer = { passkey: PasskeySummaryJSON } | { error: PasskeyRefusal };
