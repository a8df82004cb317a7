import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { PasskeyRegister } from "@/features/people/components/passkey-register";
import { signInForInviteAction } from "@/lib/auth/actions";
import { acceptInvitationAction } from "@/lib/auth/passkey-actions";
import { inviteTokenSchema } from "@/lib/auth/sign-up-contract";
import { getCurrentPerson } from "@/lib/auth/session.server";
import { readInvitation } from "@/lib/people/invitations.server";
import type { InvitationState } from "@/lib/people/invitations.server";
import { getDisplayFormat } from "@/lib/format.server";
import { shopPath } from "@/lib/shops/paths";

export async function invitePageMetadata(): Promise<Metadata> {
  // The link is a secret for one person: search engines keep out.
  return { title: (await getTranslations("people.invite"))("title"), robots: { index: false, follow: false } };
}

const card = "rounded-lg border border-zinc-200 bg-white p-4 sm:p-6";

/**
 * An invite link (made on a shop's Members page): which shop and role it is for, and a way in —
 * signed out, with a marketplace account or a new passkey; signed in, a "Join" button. A link that
 * no longer works says why.
 */
export async function InvitePage({ params }: PageProps<"/invite/[token]">) {
  const { token } = await params;
  const parsed = inviteTokenSchema.safeParse(token);
  const invitation: InvitationState = parsed.success ? await readInvitation(parsed.data) : { state: "unknown" };
  if (invitation.state !== "open") return <ClosedInvitation state={invitation.state} />;

  const [t, locale, format, person] = await Promise.all([getTranslations("people"), getLocale(), getDisplayFormat(), getCurrentPerson()]);
  const roleName = t(`roles.${invitation.role}`);
  // In a sentence the role reads as a word ("invites you as manager"), not a label.
  const role = roleName.toLocaleLowerCase(locale);
  const shop = invitation.shopName;
  const membership = person?.shops.find((candidate) => candidate.id === invitation.shopId);

  return (
    <section className="mx-auto max-w-2xl min-w-0 space-y-6">
      <div className={card}>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{t("invite.heading", { shop, role })}</h1>
        <p className="mt-2 text-sm text-zinc-700">
          {t("invite.roleHelp", { role: roleName, description: t(`roleDescriptions.${invitation.role}`) })}
        </p>
        <p className="mt-1 text-sm text-zinc-600">{t("invite.validUntil", { date: format.date(invitation.expiresAt) })}</p>
      </div>

      {person ? (
        <div className={`${card} space-y-4`}>
          <p className="text-sm text-zinc-700">{t("invite.signedIn.as", { name: person.name })}</p>
          {membership ? (
            <>
              <p className="text-sm text-zinc-700">
                {t("invite.signedIn.alreadyMember", { shop, role: t(`roles.${membership.role}`).toLocaleLowerCase(locale) })}
              </p>
              <Link
                href={shopPath(invitation.shopId)}
                className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline"
              >
                {t("invite.signedIn.openShop", { shop })}
              </Link>
            </>
          ) : (
            <form action={acceptInvitationAction.bind(null, token)}>
              <button
                type="submit"
                className="w-full rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-900 sm:w-auto"
              >
                {t("invite.signedIn.join", { shop, role })}
              </button>
            </form>
          )}
          <p className="text-xs text-zinc-600">{t("invite.signedIn.notYou")}</p>
        </div>
      ) : (
        <>
          <p className="text-sm text-zinc-700">{t("invite.signedOut.intro")}</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className={`${card} space-y-3`}>
              <h2 className="text-lg font-medium">{t("invite.signedOut.marketplaceTitle")}</h2>
              <p className="text-sm text-zinc-600">{t("invite.signedOut.marketplaceHelp")}</p>
              {/* lib/auth/actions.ts (the lead's): remembers the invitation, then the marketplace's login, back here. */}
              <form action={signInForInviteAction.bind(null, token)}>
                <button
                  type="submit"
                  className="w-full rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium text-zinc-900 hover:bg-zinc-50 sm:w-auto"
                >
                  {t("invite.signedOut.marketplaceButton")}
                </button>
              </form>
            </div>
            <div className={`${card} space-y-3`}>
              <h2 className="text-lg font-medium">{t("invite.signedOut.passkeyTitle")}</h2>
              <p className="text-sm text-zinc-600">{t("invite.signedOut.passkeyHelp")}</p>
              <PasskeyRegister invite={token} redirectTo={shopPath(invitation.shopId)} />
            </div>
          </div>
        </>
      )}
    </section>
  );
}

async function ClosedInvitation({ state }: { state: Exclude<InvitationState["state"], "open"> }) {
  const t = await getTranslations("people.invite.closed");
  return (
    <section
      className="mx-auto max-w-lg space-y-4 rounded-lg border border-zinc-200 bg-white p-4 sm:p-8"
      data-testid={`invitation-${state}`}
    >
      <h1 className="text-2xl font-semibold tracking-tight">{t(`${state}.title`)}</h1>
      <p className="text-sm text-zinc-700">{t(`${state}.body`)}</p>
      <Link href="/" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline">
        {t("home")}
      </Link>
    </section>
  );
}
