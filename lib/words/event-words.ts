// Notifications in the seller's words: a domain and status (spec: Events → Domains and statuses)
// become one short sentence ("New order", "Price updated"); a domain alone (the event log's
// filter) becomes what it is about ("Orders").
import { WEBHOOK_DOMAINS } from "@/lib/marketplace/values";
import { otherWord } from "@/lib/words/words";
import type { Words } from "@/lib/words/words";

export type EventDomain = keyof typeof WEBHOOK_DOMAINS;
type EventKey = { [D in EventDomain]: `events.${D}.${(typeof WEBHOOK_DOMAINS)[D][number]}` }[EventDomain];

/** The domains, in the spec's order: the event log's filter offers them (words under `words.domains`). */
export const EVENT_DOMAINS = Object.keys(WEBHOOK_DOMAINS) as EventDomain[];

// One example of the spec sends domain `order` for what the table calls `order.order`.
const DOMAIN_ALIASES: Readonly<Record<string, EventDomain>> = { order: "order.order" };

function knownDomain(domain: string): EventDomain | null {
  const canonical = DOMAIN_ALIASES[domain] ?? domain;
  return Object.hasOwn(WEBHOOK_DOMAINS, canonical) ? (canonical as EventDomain) : null;
}

/** What a domain is about ("Orders", "Platform deliveries"); an unknown one marked. */
export function domainWord(t: Words, domain: string): string {
  const known = knownDomain(domain);
  return known ? t(`domains.${known}`) : otherWord(t, domain);
}

/**
 * The event as a sentence. A status its domain does not list keeps the domain's word ("Orders —
 * other: shipped"); an unknown domain shows both codes, marked; a body without either (stored
 * invalid) says so.
 */
export function eventWord(t: Words, domain: string | null, status: string | null): string {
  if (domain === null) return t("events.unrecognised");
  const known = knownDomain(domain);
  if (!known) return otherWord(t, status ? `${domain} · ${status}` : domain);
  const statuses: readonly string[] = WEBHOOK_DOMAINS[known];
  if (status !== null && statuses.includes(status)) return t(`events.${known}.${status}` as EventKey);
  return t("events.otherStatus", { subject: t(`domains.${known}`), status: status?.trim() || "—" });
}
