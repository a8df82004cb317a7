"use client";

import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";
import { unstable_rethrow } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { passkeySignInAction } from "@/lib/auth/passkey-actions";
import { passkeyProblemOf, requestPasskeyOptions } from "./passkey-ceremony";

/**
 * "Sign in with a passkey": the browser offers the passkeys it keeps for this dashboard (no
 * username: they are discoverable), and the chosen one's answer signs the person in. Auth.js then
 * redirects to `redirectTo` (the start by default).
 */
export function PasskeySignIn({ redirectTo }: { redirectTo?: string }) {
  const t = useTranslations("people.passkeys");
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const signInWithPasskey = () =>
    startTransition(async () => {
      setError(null);
      if (!browserSupportsWebAuthn()) return setError(t("errors.unsupported"));
      let response: AuthenticationResponseJSON;
      try {
        response = await startAuthentication({ optionsJSON: await requestPasskeyOptions({ purpose: "authenticate" }) });
      } catch (problem) {
        return setError(t(`errors.${passkeyProblemOf(problem)}`));
      }
      try {
        const answer = await passkeySignInAction({ response: JSON.stringify(response), ...(redirectTo ? { redirectTo } : {}) });
        // Success is a redirect: an answer is always a refusal.
        setError(answer.message);
      } catch (failure) {
        unstable_rethrow(failure);
        setError(t("errors.failed"));
      }
    });

  return (
    <div>
      <button
        type="button"
        onClick={signInWithPasskey}
        disabled={pending}
        aria-describedby="passkey-sign-in-error"
        className="w-full rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium text-zinc-900 shadow-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 sm:w-auto"
      >
        {pending ? t("signIn.working") : t("signIn.button")}
      </button>
      <p id="passkey-sign-in-error" aria-live="assertive" className="mt-2 text-sm text-red-800">
        {error}
      </p>
    </div>
  );
}
