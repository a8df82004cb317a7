// The browser's side of a passkey ceremony (used by the sign-in, invite and account components):
// asking the dashboard for options, and turning what the browser or the dashboard refused into
// one of a few problems the person can act on.
import { WebAuthnError } from "@simplewebauthn/browser";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import type { PasskeyOptionsRequest } from "@/lib/auth/passkey-contract";

/** The keys of "people.passkeys.errors". */
export type PasskeyProblem = "cancelled" | "unsupported" | "alreadyRegistered" | "invitationClosed" | "failed";

export class PasskeyCeremonyError extends Error {
  constructor(readonly problem: PasskeyProblem) {
    super(problem);
    this.name = "PasskeyCeremonyError";
  }
}

type OptionsFor<R extends PasskeyOptionsRequest> = R["purpose"] extends "authenticate"
  ? PublicKeyCredentialRequestOptionsJSON
  : PublicKeyCredentialCreationOptionsJSON;

/** POST /api/passkeys/options: the options, and this browser's challenge cookie with them. */
export async function requestPasskeyOptions<R extends PasskeyOptionsRequest>(body: R): Promise<OptionsFor<R>> {
  const response = await fetch("/api/passkeys/options", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    cache: "no-store",
  }).catch(() => {
    throw new PasskeyCeremonyError("failed");
  });
  if (response.ok) return (await response.json()) as OptionsFor<R>;
  const refusal = (await response.json().catch(() => null)) as { error?: string } | null;
  throw new PasskeyCeremonyError(refusal?.error === "invitation" ? "invitationClosed" : "failed");
}

/**
 * What went wrong, in words the person can act on. Browsers report "cancelled", "timed out" and
 * "no passkey for this site" alike (NotAllowedError), on purpose: a site may not learn which.
 */
export function passkeyProblemOf(error: unknown): PasskeyProblem {
  if (error instanceof PasskeyCeremonyError) return error.problem;
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "alreadyRegistered";
    if (error.code === "ERROR_CEREMONY_ABORTED" || error.code === "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY") return "cancelled";
    return "failed";
  }
  if (error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError")) return "cancelled";
  return "failed";
}
