"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { useShopId } from "@/components/shop-link";
import { idle } from "@/lib/action-state";
import type { ActionState } from "@/lib/action-state";
import { changeMemberAction, revokeInvitationAction } from "@/features/people/actions";
import { ROLES } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";

/**
 * A member's role select and "Remove", for owners. The only owner gets neither: the server refuses
 * to leave a shop without one, so the page says why instead of offering what would be refused.
 */
export function MemberControls({ personId, name, role, soleOwner }: { personId: string; name: string; role: Role; soleOwner: boolean }) {
  const t = useTranslations("members");
  const shopId = useShopId() ?? "";
  const [state, action, pending] = useActionState<ActionState, FormData>(
    // "Remove" is the form's other submit button: its value wins over the select's.
    (_previous, formData) =>
      changeMemberAction(shopId, personId, formData.get("intent") === "remove" ? "remove" : String(formData.get("role") ?? "")),
    idle,
  );
  if (soleOwner) return <p className="text-sm text-zinc-600">{t("members.soleOwner")}</p>;
  return (
    <div className="space-y-2">
      <form action={action} className="flex flex-wrap items-end gap-2">
        <select
          name="role"
          defaultValue={role}
          className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm"
          aria-label={t("members.role", { name })}
        >
          {ROLES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {t(`roles.${candidate}.name`)}
            </option>
          ))}
        </select>
        <button
          type="submit"
          disabled={pending}
          className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-50"
        >
          {t("members.change")}
        </button>
        <button
          type="submit"
          name="intent"
          value="remove"
          disabled={pending}
          className="min-h-11 rounded-md border border-red-300 px-3 text-sm font-medium text-red-800 hover:bg-red-50"
        >
          {t("members.remove", { name })}
        </button>
      </form>
      <p aria-live="polite" className={`text-sm ${state.status === "error" ? "text-red-800" : "text-zinc-700"}`}>
        {state.status === "idle" ? null : state.message}
      </p>
    </div>
  );
}

export function RevokeInvitation({ invitationId }: { invitationId: string }) {
  const t = useTranslations("members");
  const shopId = useShopId() ?? "";
  const [state, action, pending] = useActionState<ActionState>(() => revokeInvitationAction(shopId, invitationId), idle);
  return (
    <form action={action}>
      <button
        type="submit"
        disabled={pending}
        className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-50"
      >
        {t("invite.revoke")}
      </button>
      {state.status === "error" ? <p className="text-sm text-red-800">{state.message}</p> : null}
    </form>
  );
}
