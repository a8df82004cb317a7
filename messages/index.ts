// The dashboard's catalogues: one JSON file per area and language (messages/<locale>/<area>.json),
// so that a page's words sit in one small file per language. English is the reference shape
// (i18n/app-config.d.ts types every key against it); messages/catalogues.test.ts fails when a key
// or a placeholder is missing in either language.
import type { Locale } from "@/i18n/config";
import enCommon from "./en/common.json";
import enConnect from "./en/connect.json";
import enOrders from "./en/orders.json";
import enOverview from "./en/overview.json";
import enPrices from "./en/prices.json";
import enProblems from "./en/problems.json";
import enSettings from "./en/settings.json";
import enShell from "./en/shell.json";
import enSkus from "./en/skus.json";
import enWebhooks from "./en/webhooks.json";
import enWords from "./en/words.json";
import enSearch from "./en/search.json";
import enSales from "./en/sales.json";
import ptSales from "./pt-BR/sales.json";
import ptSearch from "./pt-BR/search.json";
import ptCommon from "./pt-BR/common.json";
import ptConnect from "./pt-BR/connect.json";
import ptOrders from "./pt-BR/orders.json";
import ptOverview from "./pt-BR/overview.json";
import ptPrices from "./pt-BR/prices.json";
import ptProblems from "./pt-BR/problems.json";
import ptSettings from "./pt-BR/settings.json";
import ptShell from "./pt-BR/shell.json";
import ptSkus from "./pt-BR/skus.json";
import ptWebhooks from "./pt-BR/webhooks.json";
import ptWords from "./pt-BR/words.json";
import enAudit from "./en/audit.json";
import ptAudit from "./pt-BR/audit.json";
import enMembers from "./en/members.json";
import ptMembers from "./pt-BR/members.json";
import enPeople from "./en/people.json";
import ptPeople from "./pt-BR/people.json";
import enShipping from "./en/shipping.json";
import enInbox from "./en/inbox.json";
import ptInbox from "./pt-BR/inbox.json";
import enNotifications from "./en/notifications.json";
import ptNotifications from "./pt-BR/notifications.json";
import ptShipping from "./pt-BR/shipping.json";

const en = {
  audit: enAudit,
  common: enCommon,
  connect: enConnect,
  inbox: enInbox,
  members: enMembers,
  notifications: enNotifications,
  orders: enOrders,
  overview: enOverview,
  people: enPeople,
  prices: enPrices,
  problems: enProblems,
  sales: enSales,
  search: enSearch,
  settings: enSettings,
  shell: enShell,
  shipping: enShipping,
  skus: enSkus,
  webhooks: enWebhooks,
  words: enWords,
};

export type Messages = typeof en;

export const catalogues: Record<Locale, Record<keyof Messages, unknown>> = {
  en,
  "pt-BR": {
    audit: ptAudit,
    common: ptCommon,
    connect: ptConnect,
    inbox: ptInbox,
    members: ptMembers,
    notifications: ptNotifications,
    orders: ptOrders,
    overview: ptOverview,
    people: ptPeople,
    prices: ptPrices,
    problems: ptProblems,
    sales: ptSales,
    search: ptSearch,
    settings: ptSettings,
    shell: ptShell,
    shipping: ptShipping,
    skus: ptSkus,
    webhooks: ptWebhooks,
    words: ptWords,
  },
};
