"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionState } from "@/lib/action-state";
import { ROLES } from "@/lib/people/roles";
import { requireShop } from "@/lib/auth/session.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { changeMembership, LastOwnerError, listMembers } from "@/features/people/team.server";
import { createInvitation, revokeInvitation } from "@/features/people/invitations.server";
import { env } from "@/lib/env";
import { emailChannelOn, queueInvitationEmail } from "@/features/notifications";
import { shopPath } from "@/lib/shops/paths";

const roleSchema = z.enum(ROLES);
const idSchema = z.string().min(1).max(64);

/** `emailedTo`: where its e-mail is on its way; `note`: why it was not sent, when it was asked for. */
export type InviteState = ActionState<{ link: string; role: string; emailedTo: string | null; note: string | null }>;

const inviteEmailSchema = z.union([z.literal(""), z.email().max(254)]);

/** Single use, expiring in 7 days; the link is shown once. */
export async function createInvitationAction(shopId: string, _previous: InviteState, formData: FormData): Promise<InviteState> {
  const { shop, person } = await requireShop(shopId, "members.manage");
  const t = await getTranslations("members.actions");
  const role = roleSchema.safeParse(formData.get("role"));
  if (!role.success) return failed(t("chooseRole"), { fieldErrors: { role: [t("chooseRole")] } });
  const email = inviteEmailSchema.safeParse(String(formData.get("email") ?? "").trim());
  if (!email.success) return failed(t("badEmail"), { fieldErrors: { email: [t("badEmail")] } });
  const invitation = await createInvitation(shop.id, role.data, person.id);
  await recordAudit({
    shopId: shop.id,
    person,
    action: "invitation.create",
    after: { role: role.data, expiresAt: invitation.expiresAt.toISOString(), ...(email.data ? { emailed: true } : {}) },
  });
  revalidatePath(shopPath(shop.id, "/members"));
  const link = new URL(`/invite/${invitation.token}`, env.PUBLIC_BASE_URL).href;
  if (!email.data) return succeeded(t("inviteCreated"), { link, role: role.data, emailedTo: null, note: null });
  // Sent by the outbox (features/notifications): an SMTP server down delays it, loses nothing.
  if (!emailChannelOn()) return succeeded(t("inviteCreated"), { link, role: role.data, emailedTo: null, note: t("emailOff") });
  try {
    await queueInvitationEmail({ invitationId: invitation.id, shopId: shop.id, inviterId: person.id, email: email.data, link });
  } catch {
    return succeeded(t("inviteCreated"), { link, role: role.data, emailedTo: null, note: t("emailNotQueued") });
  }
  return succeeded(t("inviteCreated"), { link, role: role.data, emailedTo: email.data, note: null });
}

export async function revokeInvitationAction(shopId: string, invitationId: string): Promise<ActionState> {
  const { shop, person } = await requireShop(shopId, "members.manage");
  const t = await getTranslations("members.actions");
  const id = idSchema.safeParse(invitationId);
  const role = id.success ? await revokeInvitation(shop.id, id.data) : null;
  if (!role) return failed(t("noSuchInvite"));
  await recordAudit({ shopId: shop.id, person, action: "invitation.revoke", before: { role } });
  revalidatePath(shopPath(shop.id, "/members"));
  return succeeded(t("inviteRevoked"), null);
}

/** `role` "remove" removes them. Takes effect on their next request; a shop always keeps an owner. */
export async function changeMemberAction(shopId: string, personId: string, role: string): Promise<ActionState> {
  const { shop, person } = await requireShop(shopId, "members.manage");
  const t = await getTranslations("members.actions");
  const target = idSchema.safeParse(personId);
  const next = z.union([roleSchema, z.literal("remove")]).safeParse(role);
  if (!target.success || !next.success) return failed(t("unknownRequest"));
  const member = (await listMembers(shop.id)).find((candidate) => candidate.personId === target.data);
  if (!member) return failed(t("noSuchMember"));
  try {
    const before = await changeMembership(shop.id, target.data, next.data === "remove" ? null : next.data);
    if (!before) return failed(t("noSuchMember"));
    await recordAudit(
      next.data === "remove"
        ? { shopId: shop.id, person, action: "member.remove", subject: member.name, before: { role: before } }
        : { shopId: shop.id, person, action: "member.role", subject: member.name, before: { role: before }, after: { role: next.data } },
    );
  } catch (error) {
    if (error instanceof LastOwnerError) return failed(t("lastOwner"));
    throw error;
  }
  revalidatePath(shopPath(shop.id, "/members"));
  return succeeded(next.data === "remove" ? t("removed", { name: member.name }) : t("roleChanged", { name: member.name }), null);
}
