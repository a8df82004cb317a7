"use server";

import { AuthError } from "next-auth";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { failed } from "@/lib/action-state";
import type { ActionAnswer } from "@/lib/action-state";
import { signIn } from "@/lib/auth/auth.server";
import { passkeySignInInputSchema } from "@/lib/auth/passkey-contract";
import { inviteTokenSchema } from "@/lib/auth/sign-up-contract";
import type { PasskeySignInInput } from "@/lib/auth/passkey-contract";
import { PASSKEY_PROVIDER_ID } from "@/lib/auth/passkeys.server";
import { requirePerson } from "@/lib/auth/session.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { acceptInvitation, readInvitation } from "@/lib/people/invitations.server";
import { shopPath } from "@/lib/shops/paths";

/** Public by design: it is how a person without a session gets one. A refusal says nothing about why. */
export async function passkeySignInAction(input: PasskeySignInInput): Promise<ActionAnswer> {
  const t = await getTranslations("people.passkeys.errors");
  const parsed = passkeySignInInputSchema.safeParse(input);
  if (!parsed.success) return failed(t("notVerified"));
  const { response, invite, name, redirectTo } = parsed.data;
  // Form fields: a field left undefined would arrive as "undefined".
  const credentials = { response, ...(invite !== undefined && name !== undefined ? { invite, name } : {}) };
  try {
    await signIn(PASSKEY_PROVIDER_ID, { ...credentials, redirectTo: redirectTo ?? "/" });
  } catch (error) {
    // Success is a thrown redirect, which must go through.
    if (error instanceof AuthError) return failed(invite !== undefined ? t("joinRefused") : t("notVerified"));
    throw error;
  }
  return failed(t("notVerified"));
}

/** A member keeps their role and leaves the link unused, for whoever it was meant for. */
export async function acceptInvitationAction(token: string): Promise<void> {
  const person = await requirePerson();
  const parsed = inviteTokenSchema.safeParse(token);
  if (!parsed.success) redirect("/");
  const invitePage = `/invite/${parsed.data}`;
  const invitation = await readInvitation(parsed.data);
  if (invitation.state !== "open") redirect(invitePage);
  if (person.shops.some((shop) => shop.id === invitation.shopId)) redirect(shopPath(invitation.shopId));
  const outcome = await acceptInvitation(parsed.data, person.id);
  if (outcome.state !== "open") redirect(invitePage);
  await recordAudit({
    shopId: outcome.shopId,
    person: { id: person.id, name: person.name },
    action: "member.join",
    subject: person.name,
    after: { role: outcome.role },
  });
  revalidatePath("/", "layout");
  redirect(shopPath(outcome.shopId));
}
