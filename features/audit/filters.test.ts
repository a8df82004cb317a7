import { describe, expect, it } from "vitest";
import { auditSearchParams, parseAuditFilters, parseAuditQuery } from "@/features/audit/filters";

// The audit log's URL: what its GET form submits (empty fields included) reads as filters, and
// anything else is refused naming the parameter.

describe("parseAuditQuery", () => {
  it("reads the form's fields, an empty one as no filter", () => {
    const parsed = parseAuditQuery(new URLSearchParams("person=&kind=price&from=2026-11-01&to=&before=123"));
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ kind: "price", from: "2026-11-01", before: "123" });
    expect(parseAuditQuery(new URLSearchParams("")).data).toEqual({});
  });

  it("refuses a bad value, naming its parameter", () => {
    const cases: [string, string][] = [
      ["kind=billing", "kind"],
      ["from=2026-02-30", "from"],
      ["to=22/11/2026", "to"],
      ["from=2026-11-22&to=2026-11-21", "to"],
      ["before=abc", "before"],
      ["before=99999999999999999999", "before"],
      ["before=9223372036854775808", "before"],
      [`person=${"x".repeat(65)}`, "person"],
    ];
    for (const [query, parameter] of cases) {
      const parsed = parseAuditQuery(new URLSearchParams(query));
      expect(parsed.success, query).toBe(false);
      expect(parsed.error?.issues[0]?.path, query).toEqual([parameter]);
    }
  });

  it("accepts a single day (from = to) and the largest entry id", () => {
    expect(parseAuditQuery(new URLSearchParams("from=2026-11-22&to=2026-11-22&before=9223372036854775807")).success).toBe(true);
  });
});

describe("the filters' URL", () => {
  it("reads back what it writes, and the export's filters leave the cursor out", () => {
    const filters = { person: "p1", kind: "member" as const, from: "2026-11-01", to: "2026-11-30" };
    expect(parseAuditQuery(auditSearchParams(filters, "42")).data).toEqual({ ...filters, before: "42" });
    expect(parseAuditFilters(auditSearchParams(filters, "42")).data).toEqual(filters);
    expect(auditSearchParams({}).toString()).toBe("");
  });
});
