import "server-only";
import { createTranslator } from "use-intl/core";
import { SHARED_INTL } from "@/features/notifications/shared-intl";
import { env } from "@/lib/env";
import { formatMoney } from "@/lib/money";
import { can } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { shopPath } from "@/lib/shops/paths";
import { attentionPath } from "@/lib/shops/shop-attention";
import type { AttentionCause } from "@/lib/shops/shop-attention";
import { orderLabel } from "@/lib/words/order-reference";
import { calendarDayWords } from "@/lib/words/calendar-day";
import { isLocale, DEFAULT_LOCALE } from "@/i18n/config";
import type { Locale } from "@/i18n/config";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { emailHtml } from "@/features/notifications/mail/layout.server";
import { unsubscribeLink } from "@/features/notifications/unsubscribe.server";
import type { NotificationKind } from "@/features/notifications/kinds";
import type { DigestFigures } from "@/features/notifications/digest.server";

// What one message says by e-mail, in the person's language (issue 41). Amounts as the role may see
// them; the customer's name only for a role that sees customer data (a viewer's copy has none).
// Every link is on PUBLIC_BASE_URL.

export interface MailTarget {
  messageId: string;
  personId: string;
  personName: string;
  address: string;
  locale: string | null;
  role: Role;
  shopId: string;
  shopName: string;
  kind: NotificationKind;
  count: number;
  order: {
    id: string;
    reference: number | null;
    total: number;
    currency: string;
    normalizer: number;
    itemCount: number;
    customerName: string;
  } | null;
  /** For "member.joined": who joined, and their role now. */
  member: { name: string; role: Role } | null;
  /** For "digest": the shop's date it is for (YYYY-MM-DD) and its figures, counted when sent. */
  digest: { day: string; figures: DigestFigures } | null;
  /** For "shop.attention": what the shop needs; null for several at once (a burst). */
  attention: AttentionCause | null;
}

export interface ComposedMail {
  to: { name: string; address: string };
  subject: string;
  html: string;
  text: string;
  messageId: string;
  /** The one-click unsubscribe URL (RFC 8058); null for what is not a subscription (an invitation). */
  unsubscribeUrl: string | null;
}

/** Header values are one line: a name or a shop typed with a line break cannot add a header. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
}

const absolute = (path: string) => `${env.PUBLIC_BASE_URL}${path}`;

/** The translator's call shape, loosely typed: keys are chosen by kind at run time, each tested. */
type Translator = (key: string, values?: Record<string, string | number>) => string;

interface MailWords {
  subject: string;
  heading: string;
  lines: string[];
  button: string;
  buttonUrl: string;
}

function orderMailWords(t: Translator, target: MailTarget, locale: Locale): MailWords {
  const shop = target.shopName;
  const order = target.order!;
  const reference = orderLabel({ id: order.id, reference: order.reference });
  const buttonUrl = absolute(shopPath(target.shopId, `/orders/${encodeURIComponent(order.id)}`));
  if (target.kind === "order.late") {
    return {
      subject: t("email.late.subject", { reference, shop }),
      heading: t("email.late.heading", { reference }),
      lines: [t("email.late.lead", { reference, shop })],
      button: t("email.late.button"),
      buttonUrl,
    };
  }
  const total = formatMoney({ value: order.total, currency: order.currency, normalizer: order.normalizer }, locale);
  const lines = [
    t("email.newOrder.lead", { shop }),
    t("email.newOrder.total", { total }),
    t("email.newOrder.items", { count: order.itemCount }),
  ];
  if (can(target.role, "orders.customerData")) lines.push(t("email.newOrder.customer", { name: order.customerName }));
  return {
    subject: t("email.newOrder.subject", { reference, total, shop }),
    heading: t("email.newOrder.heading", { reference }),
    lines,
    button: t("email.newOrder.button"),
    buttonUrl,
  };
}

function mailWords(t: Translator, people: Translator, target: MailTarget, locale: Locale): MailWords {
  const shop = target.shopName;
  const { count } = target;
  if (target.kind === "shop.attention") {
    const { attention } = target;
    const words = `email.attention.${attention && count === 1 ? attention : "many"}`;
    return {
      subject: t(`${words}.subject`, { shop, count }),
      heading: t(`${words}.heading`, { shop }),
      lines: [t(`${words}.lead`, { shop, count })],
      button: t(`${words}.button`),
      buttonUrl: absolute(attention && count === 1 ? shopPath(target.shopId, attentionPath(attention)) : "/inbox"),
    };
  }
  if (target.kind === "digest" && target.digest) {
    const { figures, day } = target.digest;
    const date = calendarDayWords(day, locale);
    const lines = [
      t("email.digest.shipToday", { count: figures.shipToday }),
      t("email.digest.late", { count: figures.late }),
      t("email.digest.newOrders", { count: figures.newOrders }),
    ];
    if (figures.pricesBelowCost > 0 && can(target.role, "prices.view"))
      lines.push(t("email.digest.pricesBelowCost", { count: figures.pricesBelowCost }));
    if (figures.deadEvents > 0 && can(target.role, "events.view")) lines.push(t("email.digest.deadEvents", { count: figures.deadEvents }));
    return {
      subject: t("email.digest.subject", { shop, date }),
      heading: t("email.digest.heading", { shop }),
      lines,
      button: t("email.digest.button"),
      buttonUrl: absolute(shopPath(target.shopId)),
    };
  }
  if (target.kind === "member.joined") {
    const buttonUrl = absolute(shopPath(target.shopId, "/members"));
    if (target.member && count === 1) {
      const { name } = target.member;
      return {
        subject: t("email.joined.subject", { name, shop }),
        heading: t("email.joined.heading", { name }),
        lines: [t("email.joined.lead", { name, shop, role: people(`roles.${target.member.role}`) })],
        button: t("email.joined.button"),
        buttonUrl,
      };
    }
    return {
      subject: t("email.joinedBurst.subject", { count, shop }),
      heading: t("email.joinedBurst.heading", { count }),
      lines: [t("email.joinedBurst.lead", { shop })],
      button: t("email.joinedBurst.button"),
      buttonUrl,
    };
  }
  if (target.order && count === 1) return orderMailWords(t, target, locale);
  if (target.kind === "order.late") {
    return {
      subject: t("email.lateBurst.subject", { count, shop }),
      heading: t("email.lateBurst.heading", { count, shop }),
      lines: [t("email.lateBurst.lead")],
      button: t("email.lateBurst.button"),
      buttonUrl: absolute(shopPath(target.shopId, "/shipping")),
    };
  }
  return {
    subject: t("email.burst.subject", { count, shop }),
    heading: t("email.burst.heading", { count, shop }),
    lines: [t("email.burst.lead")],
    button: t("email.burst.button"),
    buttonUrl: absolute(shopPath(target.shopId, "/orders")),
  };
}

export async function composeMail(target: MailTarget): Promise<ComposedMail> {
  const locale: Locale = isLocale(target.locale) ? target.locale : DEFAULT_LOCALE;
  const messages = catalogues[locale] as Messages;
  const t = createTranslator({ locale, messages, namespace: "notifications", ...SHARED_INTL });
  const people = createTranslator({ locale, messages, namespace: "people", ...SHARED_INTL });
  const unsubscribeUrl = unsubscribeLink({ personId: target.personId, shopId: target.shopId, kind: target.kind });
  const settingsUrl = absolute("/inbox/settings");
  const why = t("email.why", { role: people(`roles.${target.role}`), shop: target.shopName });
  const unsubscribe = t(`email.unsubscribeKind.${target.kind}`);
  const settings = t("email.settings");
  const { subject, heading, lines, button, buttonUrl } = mailWords(t as Translator, people as Translator, target, locale);

  const html = await emailHtml({
    lang: locale,
    title: subject,
    preview: lines[0]!,
    heading,
    lines,
    button,
    buttonUrl,
    why,
    links: [
      { text: settings, url: settingsUrl },
      { text: unsubscribe, url: unsubscribeUrl.page },
    ],
  });
  const text = [
    heading,
    "",
    ...lines,
    "",
    `${button}: ${buttonUrl}`,
    "",
    "—",
    why,
    `${settings}: ${settingsUrl}`,
    `${unsubscribe}: ${unsubscribeUrl.page}`,
  ].join("\n");
  return {
    to: { name: oneLine(target.personName), address: target.address },
    subject: oneLine(subject),
    html,
    text,
    messageId: `<${target.messageId}@${new URL(env.PUBLIC_BASE_URL).hostname}>`,
    unsubscribeUrl: unsubscribeUrl.oneClick,
  };
}
