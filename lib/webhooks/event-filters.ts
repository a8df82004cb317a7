// The event log's filters and paging, as they appear in the page URL and the /api/events query.
// One schema for the page, the route handler and the table component.
import { z } from "zod";

export const EVENT_PAGE_SIZES = [25, 50, 100] as const;

/** Where an event is in processing (prisma/schema.prisma WebhookEvent.processingState). */
export const PROCESSING_STATES = ["pending", "processing", "retrying", "processed", "skipped", "dead"] as const;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const optionalText = (max: number) => z.preprocess(emptyToUndefined, z.string().trim().min(1).max(max).optional());
const optionalInstant = z.preprocess(emptyToUndefined, z.iso.datetime({ offset: true, local: true }).optional());

export const eventFiltersSchema = z
  .object({
    domain: optionalText(50),
    status: optionalText(50),
    resource: optionalText(100),
    processing: z.preprocess(emptyToUndefined, z.enum(PROCESSING_STATES).optional()),
    from: optionalInstant,
    to: optionalInstant,
    page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(1)),
    size: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .refine((value) => (EVENT_PAGE_SIZES as readonly number[]).includes(value), "must be 25, 50 or 100")
        .default(25),
    ),
  })
  .refine((value) => !value.from || !value.to || new Date(value.from) <= new Date(value.to), {
    message: "The start of the time range is after its end",
    path: ["to"],
  });

export type EventFilters = z.infer<typeof eventFiltersSchema>;

export function eventFiltersFromSearchParams(params: URLSearchParams) {
  return eventFiltersSchema.safeParse(Object.fromEntries(params));
}

/** The URL form of filters, without defaults, so links stay short and stable. */
export function eventFiltersToSearchParams(filters: Partial<EventFilters>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["domain", "status", "resource", "processing", "from", "to"] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  if (filters.size && filters.size !== 25) params.set("size", String(filters.size));
  return params;
}
