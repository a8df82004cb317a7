"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { useShopId } from "@/components/shop-link";
import { idle } from "@/lib/action-state";
import { createInvitationAction } from "@/features/people/actions";
import type { InviteState } from "@/features/people/actions";
import { ROLES } from "@/lib/people/roles";

/** Team → "Invite someone": a role, then the link to share (shown once). Works without JavaScript. */
export function InviteForm() {
  const t = useTranslations("members");
  const [state, action, pending] = useActionState<InviteState, FormData>(createInvitationAction.bind(null, useShopId() ?? ""), idle);
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
          </div>
        ) : state.status === "error" ? (
          <p className="text-sm text-red-800">{state.message}</p>
        ) : null}
      </div>
    </form>
  );
}
