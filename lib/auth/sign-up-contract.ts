// What a person joining through an invite link sends, browser-safe: the invite page's form and the
// server parse with these (lib/auth/passkey-contract.ts builds the passkey answers on them).
import { z } from "zod";

export const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/);

export const PERSON_NAME_MAX = 80;
export const personNameSchema = z.string().trim().min(1).max(PERSON_NAME_MAX);

/** lib/people/invitations.server.ts makes 32 characters. */
export const inviteTokenSchema = base64url.min(16).max(128);

/** "//host" and "/\host" are other sites to a browser. */
export const sameSitePathSchema = z
  .string()
  .max(512)
  .refine((path) => path.startsWith("/") && !path.startsWith("//") && !path.includes("\\"), "must be a path of this site");
