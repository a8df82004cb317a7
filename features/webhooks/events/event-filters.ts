// The event log's URL, validated (the page and /api/events). Declared in event-params.ts.
import { tableSchema } from "@/lib/tables/table-schema";
import { eventsTable } from "@/features/webhooks/events/event-params";

export { eventsTable, PROCESSING_STATES } from "@/features/webhooks/events/event-params";
export type { EventFilters } from "@/features/webhooks/events/event-params";

export const eventsSchema = tableSchema(eventsTable, {
  check: (state) =>
    state.from && state.to && new Date(state.from) > new Date(state.to)
      ? { filter: "to", message: "The start of the time range is after its end" }
      : null,
});
