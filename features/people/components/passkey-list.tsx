"use client";

import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { passkeyProblemOf, requestPasskeyOptions } from "@/components/auth/passkey-ceremony";
import type { AddPasskeyAnswer, AddPasskeyRequest, PasskeySummaryJSON } from "@/lib/auth/passkey-contract";
import { useDisplayFormat } from "@/lib/format";

type Outcome = { tone: "done" | "error"; message: string } | null;

/**
 * The account page's passkeys: each with its name, when it was added and last used; "Add a
 * passkey" for this device, and Remove after a confirmation. `onlyWayIn` (no marketplace account)
 * keeps the last one: without it the person could not sign in again.
 */
export function PasskeyList({ passkeys, onlyWayIn }: { passkeys: PasskeySummaryJSON[]; onlyWayIn: boolean }) {
  const t = useTranslations("people.passkeys");
  const format = useDisplayFormat();
  const router = useRouter();
  const [adding, startAdding] = useTransition();
  const [removing, startRemoving] = useTransition();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const lastOne = onlyWayIn && passkeys.length === 1;
  const nameOf = (passkey: PasskeySummaryJSON) => passkey.name || t("list.unnamed");

  const addPasskey = () =>
    startAdding(async () => {
      setOutcome(null);
      if (!browserSupportsWebAuthn()) return setOutcome({ tone: "error", message: t("errors.unsupported") });
      try {
        const response = await startRegistration({ optionsJSON: await requestPasskeyOptions({ purpose: "add" }) });
        const body: AddPasskeyRequest = { response };
        const answer = await fetch("/api/passkeys", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const result = (await answer.json().catch(() => ({ error: "invalid" }))) as AddPasskeyAnswer;
        if ("passkey" in result) {
          setOutcome({ tone: "done", message: t("list.added") });
          router.refresh();
        } else {
          setOutcome({ tone: "error", message: result.error === "duplicate" ? t("errors.alreadyRegistered") : t("errors.failed") });
        }
      } catch (problem) {
        setOutcome({ tone: "error", message: t(`errors.${passkeyProblemOf(problem)}`) });
      }
    });

  const removePasskey = (id: string) =>
    startRemoving(async () => {
      setOutcome(null);
      const answer = await fetch(`/api/passkeys?${new URLSearchParams({ id })}`, { method: "DELETE" }).catch(() => null);
      setConfirming(null);
      if (answer?.ok) setOutcome({ tone: "done", message: t("list.removed") });
      else if (answer?.status === 409) setOutcome({ tone: "error", message: t("list.lastWayIn") });
      else if (answer?.status === 404) setOutcome({ tone: "error", message: t("list.notFound") });
      else setOutcome({ tone: "error", message: t("errors.failed") });
      router.refresh();
    });

  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6">
      <h2 className="text-lg font-medium">{t("list.title")}</h2>
      <p className="mt-1 text-sm text-zinc-600">{t("list.help")}</p>
      {passkeys.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-700">{t("list.empty")}</p>
      ) : (
        <ul className="mt-4 divide-y divide-zinc-200 border-y border-zinc-200" data-testid="passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
              <div className="min-w-0 text-sm">
                <div className="font-medium break-words text-zinc-900">{nameOf(passkey)}</div>
                <div className="text-zinc-600">
                  {t("list.created", { date: format.date(passkey.createdAt) })}
                  {" · "}
                  {passkey.lastUsedAt ? t("list.lastUsed", { date: format.date(passkey.lastUsedAt) }) : t("list.neverUsed")}
                </div>
              </div>
              {confirming === passkey.id ? (
                <div
                  role="group"
                  aria-label={t("list.removeNamed", { name: nameOf(passkey) })}
                  className="w-full space-y-2 rounded-md bg-red-50 p-3 text-sm sm:w-auto"
                >
                  <p className="text-red-900">{t("list.confirm", { name: nameOf(passkey) })}</p>
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      disabled={removing}
                      onClick={() => removePasskey(passkey.id)}
                      className="rounded-md bg-red-800 px-3 py-1.5 font-medium text-white hover:bg-red-900 disabled:opacity-60"
                    >
                      {t("list.confirmButton")}
                    </button>
                    {/* Focus lands on the safe choice when the question appears. */}
                    <button
                      type="button"
                      autoFocus
                      onClick={() => setConfirming(null)}
                      className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-medium hover:bg-zinc-50"
                    >
                      {t("list.cancel")}
                    </button>
                  </div>
                </div>
              ) : (
                <button
                  type="button"
                  disabled={removing || lastOne}
                  onClick={() => {
                    setOutcome(null);
                    setConfirming(passkey.id);
                  }}
                  aria-label={t("list.removeNamed", { name: nameOf(passkey) })}
                  aria-describedby={lastOne ? "passkey-last-way-in" : undefined}
                  className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-50"
                >
                  {t("list.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {lastOne ? (
        <p id="passkey-last-way-in" className="mt-2 text-xs text-zinc-600">
          {t("list.lastWayIn")}
        </p>
      ) : null}
      <button
        type="button"
        onClick={addPasskey}
        disabled={adding}
        className="mt-4 rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-60"
      >
        {adding ? t("list.adding") : t("list.add")}
      </button>
      <p aria-live="polite" className={`mt-2 text-sm ${outcome?.tone === "error" ? "text-red-800" : "text-green-800"}`}>
        {outcome?.message}
      </p>
    </div>
  );
}
