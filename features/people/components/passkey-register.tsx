"use client";

import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import type { RegistrationResponseJSON } from "@simplewebauthn/browser";
import { unstable_rethrow } from "next/navigation";
import { useTranslations } from "next-intl";
import { useMemo, useState, useTransition } from "react";
import { useForm } from "react-hook-form";
import type { Resolver, ResolverResult } from "react-hook-form";
import { z } from "zod";
import { passkeySignInAction } from "@/lib/auth/passkey-actions";
import { PERSON_NAME_MAX, personNameSchema } from "@/lib/auth/sign-up-contract";
import { passkeyProblemOf, requestPasskeyOptions } from "@/components/auth/passkey-ceremony";

interface NameForm {
  name: string;
}

const nameForm = z.object({ name: personNameSchema });

/**
 * The invite page's passkey way in: the person's name, then "Create a passkey and join". Their
 * device makes a passkey for the person they are about to become; its answer creates them, joins
 * the shop and signs them in (lib/auth/passkeys.server.ts), and Auth.js redirects to `redirectTo`.
 */
export function PasskeyRegister({ invite, redirectTo }: { invite: string; redirectTo: string }) {
  const t = useTranslations("people.passkeys");
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  // The shared schema, worded for the form (react-hook-form keeps what was typed on every outcome).
  const resolver = useMemo<Resolver<NameForm>>(
    () =>
      (values): ResolverResult<NameForm> => {
        const parsed = nameForm.safeParse(values);
        if (parsed.success) return { values: parsed.data, errors: {} };
        const tooLong = parsed.error.issues.some((issue) => issue.code === "too_big");
        const message = tooLong ? t("register.nameTooLong", { max: PERSON_NAME_MAX }) : t("register.nameRequired");
        return { values: {}, errors: { name: { type: "validate", message } } };
      },
    [t],
  );
  const { register, handleSubmit, formState } = useForm<NameForm>({
    defaultValues: { name: "" },
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const nameError = formState.errors.name?.message;

  const join = ({ name }: NameForm) =>
    startTransition(async () => {
      setError(null);
      if (!browserSupportsWebAuthn()) return setError(t("errors.unsupported"));
      let response: RegistrationResponseJSON;
      try {
        response = await startRegistration({ optionsJSON: await requestPasskeyOptions({ purpose: "register", invite, name }) });
      } catch (problem) {
        return setError(t(`errors.${passkeyProblemOf(problem)}`));
      }
      try {
        const answer = await passkeySignInAction({ response: JSON.stringify(response), invite, name, redirectTo });
        setError(answer.message);
      } catch (failure) {
        unstable_rethrow(failure);
        setError(t("errors.failed"));
      }
    });

  return (
    <form onSubmit={handleSubmit(join)} noValidate className="space-y-3">
      <div>
        <label htmlFor="passkey-person-name" className="block text-sm font-medium text-zinc-800">
          {t("register.nameLabel")}
        </label>
        <input
          id="passkey-person-name"
          type="text"
          autoComplete="name"
          maxLength={PERSON_NAME_MAX}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? "passkey-person-name-help passkey-person-name-error" : "passkey-person-name-help"}
          className="mt-1 w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm aria-invalid:border-red-500 aria-invalid:ring-1 aria-invalid:ring-red-500"
          {...register("name")}
        />
        <p id="passkey-person-name-help" className="mt-1 text-xs text-zinc-600">
          {t("register.nameHelp")}
        </p>
        {nameError ? (
          <p id="passkey-person-name-error" className="mt-1 text-sm text-red-800">
            {nameError}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60 sm:w-auto"
      >
        {pending ? t("register.working") : t("register.button")}
      </button>
      <p aria-live="assertive" className="text-sm text-red-800">
        {error}
      </p>
    </form>
  );
}
