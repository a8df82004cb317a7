import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { listMembers } from "@/features/people/team.server";
import { listPendingInvitations } from "@/features/people/invitations.server";
import { InviteForm } from "@/features/people/components/invite-form";
import { MemberControls, RevokeInvitation } from "@/features/people/components/member-controls";
import { requireShop } from "@/lib/auth/session.server";
import { getDisplayFormat } from "@/lib/format.server";

export async function membersPageMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("members"))("title") };
}

// Team: the shop's people and roles, and invite links. Owners only.
export async function MembersPage({ params }: PageProps<"/s/[shopId]/members">) {
  const { shop, person } = await requireShop((await params).shopId, "members.manage");
  const [t, format, members, invitations] = await Promise.all([
    getTranslations("members"),
    getDisplayFormat(),
    listMembers(shop.id),
    listPendingInvitations(shop.id),
  ]);
  // The person made when the shop's marketplace account connected is named as the platform names
  // that account, which is the shop's own name: a "person called Loja Demo" reads as a mistake.
  const displayName = (member: { name: string; marketplaceEmail: string | null }) =>
    member.marketplaceEmail && member.name.trim().toLocaleLowerCase() === shop.name.trim().toLocaleLowerCase()
      ? t("members.shopAccount")
      : member.name;
  return (
    <section className="max-w-3xl min-w-0 space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-zinc-600">{t("intro")}</p>
      </div>
      <div className="rounded-lg border border-zinc-200 bg-white">
        <h2 className="border-b border-zinc-200 px-4 py-3 text-lg font-medium sm:px-6">{t("members.title")}</h2>
        <ul className="divide-y divide-zinc-200" data-testid="members">
          {members.map((member) => (
            <li key={member.personId} className="space-y-2 px-4 py-4 sm:px-6">
              <div>
                <p className="font-medium text-zinc-900" data-testid="member-name">
                  {displayName(member)}{" "}
                  {member.personId === person.id ? <span className="text-sm font-normal text-zinc-600">({t("members.you")})</span> : null}
                </p>
                <p className="text-sm text-zinc-600">
                  {t(`roles.${member.role}.name`)} · {t("members.since", { date: format.date(member.since, "date") })}
                </p>
                <p className="text-sm break-all text-zinc-600">
                  {member.marketplaceEmail ? t("members.signsInWith", { email: member.marketplaceEmail }) : null}
                  {member.marketplaceEmail ? " · " : null}
                  {t("members.passkeys", { count: member.passkeys })}
                </p>
              </div>
              <MemberControls
                personId={member.personId}
                name={displayName(member)}
                role={member.role}
                soleOwner={member.role === "owner" && members.filter((other) => other.role === "owner").length === 1}
              />
            </li>
          ))}
        </ul>
      </div>
      <InviteForm shopName={shop.name} />
      <div className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6">
        <h2 className="text-lg font-medium">{t("invite.pending")}</h2>
        {invitations.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-600">{t("invite.pendingNone")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-zinc-200" data-testid="invitations">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>{t("invite.expires", { role: t(`roles.${invitation.role}.name`), date: format.date(invitation.expiresAt) })}</span>
                <RevokeInvitation invitationId={invitation.id} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        {(["owner", "manager", "operations", "viewer"] as const).map((role) => (
          <div key={role} className="rounded-lg border border-zinc-200 bg-white p-4">
            <dt className="font-medium">{t(`roles.${role}.name`)}</dt>
            <dd className="mt-1 text-zinc-600">{t(`roles.${role}.text`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
