"use client";

import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import { useShopId } from "@/components/shop-link";
import { idle } from "@/lib/action-state";
import { createInvitationAction } from "@/features/people/actions";
import type { InviteState } from "@/features/people/actions";
import { ROLES } from "@/lib/people/roles";

/**
 * Team → "Invite someone": a role, then the link to share (shown once), with a button that copies it
 * and links that open WhatsApp or the e-mail app with a message around it. Works without JavaScript
 * (the link can be selected and copied by hand).
 */
export function InviteForm({ shopName }: { shopName: string }) {
  const t = useTranslations("members");
  const [copied, setCopied] = useState<string | null>(null);
  const [state, action, pending] = useActionState<InviteState, FormData>(createInvitationAction.bind(null, useShopId() ?? ""), idle);
  const message = state.status === "success" ? t("invite.message", { shop: shopName, link: state.data.link }) : "";
  return (
    <form action={action} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-4 sm:p-6">
      <div>
        <h2 className="text-lg font-medium">{t("invite.title")}</h2>
        <p className="mt-1 text-sm text-zinc-600">{t("invite.help")}</p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="text-sm">
          <label htmlFor="invite-role" className="block text-zinc-700">
            {t("invite.role")}
          </label>
          <select id="invite-role" name="role" defaultValue="viewer" className="mt-1 min-h-11 rounded-md border border-zinc-300 px-3">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}.name`)}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 flex-1 text-sm sm:min-w-64">
          <label htmlFor="invite-email" className="block text-zinc-700">
            {t("invite.address")}
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            autoComplete="off"
            maxLength={254}
            aria-describedby="invite-email-help"
            aria-invalid={state.status === "error" && Boolean(state.fieldErrors?.email)}
            className="mt-1 min-h-11 w-full rounded-md border border-zinc-300 px-3"
          />
          <p id="invite-email-help" className="mt-1 text-zinc-600">
            {t("invite.addressHelp")}
          </p>
        </div>
        <button
          type="submit"
          disabled={pending}
          className="min-h-11 rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-60"
        >
          {t("invite.create")}
        </button>
      </div>
      <div aria-live="polite">
        {state.status === "success" ? (
          <div className="text-sm">
            {state.data.emailedTo ? (
              <p className="mb-2 font-medium text-brand-700">{t("invite.emailed", { email: state.data.emailedTo })}</p>
            ) : state.data.note ? (
              <p className="mb-2 text-zinc-800">{state.data.note}</p>
            ) : null}
            <label htmlFor="invite-link" className="block font-medium text-zinc-900">
              {t("invite.link")}
            </label>
            <input
              id="invite-link"
              readOnly
              value={state.data.link}
              aria-describedby="invite-link-help"
              className="mt-1 min-h-11 w-full rounded-md border border-zinc-300 px-3 font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
            <p id="invite-link-help" className="mt-1 text-zinc-600">
              {t("invite.copyHelp")}
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <button
                type="button"
                onClick={() => void navigator.clipboard.writeText(state.data.link).then(() => setCopied(state.data.link))}
                className="min-h-11 rounded-md border border-zinc-300 px-3 font-medium hover:bg-zinc-50"
              >
                {t("invite.copy")}
              </button>
              <a
                href={`https://wa.me/?text=${encodeURIComponent(message)}`}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex min-h-11 items-center rounded-md border border-zinc-300 px-3 font-medium hover:bg-zinc-50"
              >
                {t("invite.whatsapp")}
              </a>
              <a
                href={`mailto:?subject=${encodeURIComponent(t("invite.subject", { shop: shopName }))}&body=${encodeURIComponent(message)}`}
                className="inline-flex min-h-11 items-center rounded-md border border-zinc-300 px-3 font-medium hover:bg-zinc-50"
              >
                {t("invite.email")}
              </a>
              <span role="status" className="text-zinc-700">
                {copied === state.data.link ? t("invite.copied") : null}
              </span>
            </div>
          </div>
        ) : state.status === "error" ? (
          <p className="text-sm text-red-800">{state.message}</p>
        ) : null}
      </div>
    </form>
  );
}
