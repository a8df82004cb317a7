// Wire forms of the authorization flow (spec: Endpoints 1–3, Errors).
import { z } from "zod";

/** Values of `error` in the authorization redirect (spec: Authorization request errors). */
export const authorizationErrorCodeSchema = z.enum([
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "temporarily_unavailable",
  "server_error",
]);
export type AuthorizationErrorCode = z.infer<typeof authorizationErrorCodeSchema>;

/** Values of `error` of the token endpoint (spec: Token exchange errors). */
export const tokenErrorCodeSchema = z.enum([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
]);
export type TokenErrorCode = z.infer<typeof tokenErrorCodeSchema>;

/** Form fields of the token exchange; the spec makes all five required. */
export const tokenRequestSchema = z.object({
  code: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  redirect_uri: z.string().min(1),
  grant_type: z.string().min(1),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** `scope` and `expires_in` are optional extras a server may add (RFC 6749 §5.1); the spec has neither. */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.literal("Bearer"),
  scope: z.string().optional(),
  expires_in: z.number().int().positive().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const tokenErrorResponseSchema = z.object({
  error: tokenErrorCodeSchema,
  error_description: z.string().optional(),
});
export type TokenErrorResponse = z.infer<typeof tokenErrorResponseSchema>;

export const basicUserInfoSchema = z.object({
  user_name: z.string(),
  // Our only identity for a seller (the spec gives no user id), so a malformed one refuses the connection.
  user_email: z.string().trim().pipe(z.email()),
});

/** The same mailbox whatever letter case the platform sends. */
export function normalizeEmail(email: string): string {
  return email.trim().normalize("NFC").toLowerCase();
}
export type BasicUserInfo = z.infer<typeof basicUserInfoSchema>;
