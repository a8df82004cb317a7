import { WEBHOOK_DOMAINS } from "@marketplace/api/values";
import { otherWord } from "@/lib/words/words";
import type { Words } from "@/lib/words/words";

export type EventDomain = keyof typeof WEBHOOK_DOMAINS;
type EventKey = { [D in EventDomain]: `events.${D}.${(typeof WEBHOOK_DOMAINS)[D][number]}` }[EventDomain];

/** In the spec's order (Events → Domains and statuses). */
export const EVENT_DOMAINS = Object.keys(WEBHOOK_DOMAINS) as EventDomain[];

// One example of the spec sends domain `order` for what the table calls `order.order`.
const DOMAIN_ALIASES: Readonly<Record<string, EventDomain>> = { order: "order.order" };

function knownDomain(domain: string): EventDomain | null {
  const canonical = DOMAIN_ALIASES[domain] ?? domain;
  return Object.hasOwn(WEBHOOK_DOMAINS, canonical) ? (canonical as EventDomain) : null;
}

export function domainWord(t: Words, domain: string): string {
  const known = knownDomain(domain);
  return known ? t(`domains.${known}`) : otherWord(t, domain);
}

/** An unknown status keeps its domain's word ("Orders — other: shipped"); an unknown domain shows both codes. */
export function eventWord(t: Words, domain: string | null, status: string | null): string {
  if (domain === null) return t("events.unrecognised");
  const known = knownDomain(domain);
  if (!known) return otherWord(t, status ? `${domain} · ${status}` : domain);
  const statuses: readonly string[] = WEBHOOK_DOMAINS[known];
  if (status !== null && statuses.includes(status)) return t(`events.${known}.${status}` as EventKey);
  return t("events.otherStatus", { subject: t(`domains.${known}`), status: status?.trim() || "—" });
}
