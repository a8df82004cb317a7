// Browser-safe: the page's GET form writes these filters, and the page and CSV export validate them alike.
import { z } from "zod";
import { AUDIT_KINDS } from "@/lib/audit/kinds";

export const AUDIT_PAGE_SIZE = 50;

/** As `<input type="date">` writes it, and one that exists (no 2026-02-30). */
const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, "must be a date that exists");

const MAX_ENTRY_ID = 2n ** 63n - 1n;

/** The last entry shown, as a decimal string: ids are bigint. */
const entryCursor = z
  .string()
  .regex(/^\d{1,19}$/, "must be an entry id")
  // zod runs the refinement even when the pattern failed: it must not throw on what the pattern refused.
  .refine((id) => /^\d{1,19}$/.test(id) && BigInt(id) <= MAX_ENTRY_ID, "must be an entry id");

const filterFields = {
  person: z.string().trim().min(1).max(64).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  /** Whole days in the shop's time zone, both included. */
  from: calendarDay.optional(),
  to: calendarDay.optional(),
};

const rangeInOrder = (filters: { from?: string | undefined; to?: string | undefined }) =>
  !(filters.from && filters.to && filters.from > filters.to);
const rangeMessage = { path: ["to"], message: "must not be before from" };

export const auditFiltersSchema = z.object(filterFields).refine(rangeInOrder, rangeMessage);
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** `before`: only entries older than that id. */
export const auditQuerySchema = z.object({ ...filterFields, before: entryCursor.optional() }).refine(rangeInOrder, rangeMessage);
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** In the form's order. */
export const AUDIT_FILTER_NAMES = ["person", "kind", "from", "to"] as const satisfies readonly (keyof AuditFilters)[];

/** An empty field of the GET form is no filter; a repeated one keeps its last value. */
function present(params: URLSearchParams): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, value] of params) {
    if (value.trim() !== "") record[key] = value;
    else delete record[key];
  }
  return record;
}

export function parseAuditFilters(params: URLSearchParams) {
  return auditFiltersSchema.safeParse(present(params));
}

export function parseAuditQuery(params: URLSearchParams) {
  return auditQuerySchema.safeParse(present(params));
}

export function auditSearchParams(filters: AuditFilters, before?: string): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTER_NAMES) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  if (before) params.set("before", before);
  return params;
}
