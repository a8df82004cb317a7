// The event log's filters and paging, as they appear in the page URL and the /api/events query,
// declared once (lib/tables/table-params.ts). Newest first, always.
import { z } from "zod";
import { WEBHOOK_DOMAINS } from "@/lib/marketplace/schemas/webhook";
import { defineTableParams, instantFilter, selectFilter, textFilter } from "@/lib/tables/table-params";
import type { StateOf } from "@/lib/tables/table-params";

/** Where an event is in processing (prisma/schema.prisma WebhookEvent.processingState). */
export const PROCESSING_STATES = ["pending", "processing", "retrying", "processed", "skipped", "dead"] as const;

const text = (max: number) => z.string().trim().min(1).max(max);

export const eventsTable = defineTableParams({
  filters: {
    domain: selectFilter("Domain", Object.keys(WEBHOOK_DOMAINS)),
    status: textFilter("Status", text(50)),
    resource: textFilter("Resource id", text(100)),
    processing: selectFilter("Processing", PROCESSING_STATES),
    from: instantFilter("From", { local: true }),
    to: instantFilter("To", { local: true }),
  },
  sizes: [25, 50, 100],
  maxPage: 100_000,
  check: (state) =>
    state.from && state.to && new Date(state.from) > new Date(state.to) ? { filter: "to", message: "The start of the time range is after its end" } : null,
});

export type EventFilters = StateOf<typeof eventsTable>;
