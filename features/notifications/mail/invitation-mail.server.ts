import "server-only";
import { randomUUID } from "node:crypto";
import { createTranslator } from "use-intl/core";
import { SHARED_INTL } from "@/features/notifications/shared-intl";
import { decryptSecret, encryptSecret } from "@/lib/crypto";
import { env } from "@/lib/env";
import { DB_NOW, inTransaction } from "@/lib/pg-pool.server";
import type { Role } from "@/lib/people/roles";
import { tokenKeys } from "@/lib/shops/tokens.server";
import { DEFAULT_LOCALE, isLocale } from "@/i18n/config";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { emailHtml } from "@/features/notifications/mail/layout.server";
import { oneLine } from "@/features/notifications/mail/compose.server";
import type { ComposedMail } from "@/features/notifications/mail/compose.server";

// An invitation sent by e-mail from the Team page (issue 41), beside the link the owner can copy.
// It goes through the outbox as any message does (kind "invitation", the inviter's, about the
// invitation), so an SMTP server down delays it and loses nothing. The link is a secret kept only
// as a hash: the e-mail's copy is stored encrypted, as shop tokens are, until it is sent.

const linkContext = (invitationId: string) => `invitation:${invitationId}`;

/** Records the address and the encrypted link on the invitation, and queues its e-mail. */
export async function queueInvitationEmail(input: {
  invitationId: string;
  shopId: string;
  inviterId: string;
  email: string;
  link: string;
}) {
  await inTransaction(async (client) => {
    await client.query(`UPDATE "Invitation" SET "email" = $2, "linkEnc" = $3 WHERE "id" = $1`, [
      input.invitationId,
      input.email,
      encryptSecret(input.link, linkContext(input.invitationId), tokenKeys),
    ]);
    await client.query(
      `INSERT INTO "NotificationMessage" ("id", "personId", "sellerId", "kind", "channel", "subject", "dueAt", "createdAt")
       VALUES ($1, $2, $3, 'invitation', 'email', $4, ${DB_NOW}, ${DB_NOW})`,
      [randomUUID(), input.inviterId, input.shopId, input.invitationId],
    );
  });
}

export interface InvitationMailTarget {
  messageId: string;
  invitationId: string;
  address: string;
  linkEnc: string;
  role: Role;
  expiresAt: Date;
  inviterName: string;
  /** The inviter's language: the invitee's is not known yet. */
  locale: string | null;
  shopName: string;
}

export async function composeInvitationMail(target: InvitationMailTarget): Promise<ComposedMail> {
  const locale = isLocale(target.locale) ? target.locale : DEFAULT_LOCALE;
  const messages = catalogues[locale] as Messages;
  const t = createTranslator({ locale, messages, namespace: "notifications.email.invitation", ...SHARED_INTL });
  const people = createTranslator({ locale, messages, namespace: "people", ...SHARED_INTL });
  const link = decryptSecret(target.linkEnc, linkContext(target.invitationId), tokenKeys);
  const inviter = oneLine(target.inviterName);
  const shop = target.shopName;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "America/Sao_Paulo" }).format(target.expiresAt);
  const subject = t("subject", { inviter, shop });
  const lines = [
    t("lead", { inviter, shop, role: people(`roles.${target.role}`), description: people(`roleDescriptions.${target.role}`) }),
    t("valid", { date }),
  ];
  const html = await emailHtml({
    lang: locale,
    title: subject,
    preview: lines[0]!,
    heading: t("heading", { shop }),
    lines,
    button: t("button"),
    buttonUrl: link,
    why: t("ignore"),
    links: [],
  });
  const text = [t("heading", { shop }), "", ...lines, "", `${t("button")}: ${link}`, "", "—", t("ignore")].join("\n");
  return {
    to: { name: "", address: target.address },
    subject: oneLine(subject),
    html,
    text,
    messageId: `<${target.messageId}@${new URL(env.PUBLIC_BASE_URL).hostname}>`,
    unsubscribeUrl: null,
  };
}
