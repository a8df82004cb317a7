// The event log's filters and paging (lib/tables/table-params.ts). Newest first, always.
import { defineTableParams, instantFilter, selectFilter, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";
import { EVENT_DOMAINS } from "@/lib/words/event-words";

/** Where an event is in processing (prisma/schema.prisma WebhookEvent.processingState). */
export const PROCESSING_STATES = ["pending", "processing", "retrying", "processed", "skipped", "dead"] as const;

export const eventsTable = defineTableParams({
  filters: {
    domain: selectFilter("webhooks.filters.domain", EVENT_DOMAINS, { optionLabels: "words.domains" }),
    status: textFilter("webhooks.filters.status", { max: 50 }),
    resource: textFilter("webhooks.filters.resource"),
    processing: selectFilter("webhooks.filters.processing", PROCESSING_STATES, { optionLabels: "webhooks.processingStates" }),
    from: instantFilter("webhooks.filters.from", { local: true }),
    to: instantFilter("webhooks.filters.to", { local: true }),
  },
  sizes: [25, 50, 100],
  maxPage: 100_000,
});

export type EventFilters = StateOf<typeof eventsTable>;
