import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIMIT,
  DEFAULT_OFFSET,
  FILTER_OPERATORS,
  formatFilterName,
  formatFilterValue,
  formatListLink,
  formatListQuery,
  formatSort,
  isFieldName,
  isFilterOperator,
  isValidCount,
  MAX_LIMIT,
  operatorMeaning,
  parseCount,
  parseListLink,
  parseListQuery,
  parseSort,
  readCount,
  readFilterName,
  readSortCriterion,
  splitInValues,
  splitSort,
  type ListFilter,
  type ListQuery,
  type SortCriterion,
} from "./list-grammar";
import { listOperatorSchema } from "./schemas/list";

// Arbitraries: names the dashboard may write, values as any text (without lone surrogates, which
// URL encoding cannot carry).
const segment = fc.stringMatching(/^[a-z0-9]+(?:_[a-z0-9]+)*$/, { size: "small" });
const fieldName = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join("."));
const operator = fc.constantFrom(...FILTER_OPERATORS);
const text = fc.string({ unit: "grapheme", maxLength: 20 });
const textWithoutComma = text.filter((value) => !value.includes(","));
const direction = fc.constantFrom("asc" as const, "desc" as const);

const filter: fc.Arbitrary<ListFilter> = fc.oneof(
  fc.record({ field: fieldName, op: operator.filter((op) => op !== "in"), value: text }) as fc.Arbitrary<ListFilter>,
  fc.record({ field: fieldName, op: fc.constant("in" as const), value: fc.array(textWithoutComma, { minLength: 1, maxLength: 4 }) }),
);
const sortCriteria = fc.uniqueArray(fc.record({ field: fieldName, direction }), {
  minLength: 1,
  maxLength: 3,
  selector: (criterion) => criterion.field,
});
const listQuery: fc.Arbitrary<ListQuery> = fc.record(
  {
    limit: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    offset: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    sort: sortCriteria,
    filters: fc.uniqueArray(filter, { maxLength: 5, selector: (item) => formatFilterName(item.field, item.op) }),
  },
  { requiredKeys: ["filters"] },
);

describe("limits", () => {
  it("are the spec's: _limit 50 and _offset 0 by default, 200 at most (Limits)", () => {
    expect(DEFAULT_LIMIT).toBe(50);
    expect(DEFAULT_OFFSET).toBe(0);
    expect(MAX_LIMIT).toBe(200);
  });

  it.each(["0", "7", "50", "200", "9007199254740991", "000"])("reads the count %j", (value) => {
    expect(readCount(value)).toBe(Number(value));
  });

  it.each(["", " 5", "5 ", "-1", "+1", "1.5", "1e3", "0x10", "ten", "٣"])("reads %j as no count", (value) => {
    expect(readCount(value)).toBeNull();
  });

  it("accepts a limit of at least 1 and an offset of at least 0, as safe integers", () => {
    expect(isValidCount("_limit", 1)).toBe(true);
    expect(isValidCount("_limit", 0)).toBe(false);
    expect(isValidCount("_offset", 0)).toBe(true);
    expect(isValidCount("_offset", -1)).toBe(false);
    expect(isValidCount("_offset", 2 ** 53)).toBe(false);
    expect(isValidCount("_limit", 1.5)).toBe(false);
  });

  it("parses counts strictly, naming the parameter", () => {
    expect(parseCount("_limit", "20")).toBe(20);
    expect(() => parseCount("_limit", "ten")).toThrow(/Invalid _limit "ten": expected an integer/);
    expect(() => parseCount("_limit", "0")).toThrow(/Invalid list limit 0: expected a positive integer/);
    expect(() => parseCount("_offset", "-1")).toThrow(/Invalid _offset/);
    expect(() => parseCount("_offset", "99999999999999999999")).toThrow(/Invalid list offset/);
  });

  it("round-trips every valid count", () => {
    fc.assert(
      fc.property(fc.constantFrom("_limit" as const, "_offset" as const), fc.maxSafeNat(), (parameter, value) => {
        fc.pre(isValidCount(parameter, value));
        expect(parseCount(parameter, String(value))).toBe(value);
      }),
    );
  });
});

describe("operators", () => {
  it("spells every operator of the generic rules as itself, and the orders endpoint's ge/le as gte/lte", () => {
    for (const op of listOperatorSchema.options) {
      expect(isFilterOperator(op)).toBe(true);
      expect(operatorMeaning(op)).toBe(op);
    }
    expect(operatorMeaning("ge")).toBe("gte");
    expect(operatorMeaning("le")).toBe("lte");
    expect([...FILTER_OPERATORS].sort()).toEqual(["eq", "ge", "gt", "gte", "in", "le", "like", "lt", "lte"]);
  });

  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "LIKE", "ne", "between", ""])(
    "does not take %j for an operator",
    (suffix) => {
      expect(isFilterOperator(suffix)).toBe(false);
    },
  );
});

describe("filter names", () => {
  it.each<[string, ReturnType<typeof readFilterName>]>([
    ["status", { field: "status", operator: "eq" }],
    ["status__eq", { field: "status", operator: "eq" }],
    ["customer.name__like", { field: "customer.name", operator: "like" }],
    ["status__in", { field: "status", operator: "in" }],
    ["updated_at__ge", { field: "updated_at", operator: "ge" }],
    ["updated_at__le", { field: "updated_at", operator: "le" }],
    ["total__gte", { field: "total", operator: "gte" }],
    // The last `__` separates: the rest is the field, whatever it is.
    ["a__b__lt", { field: "a__b", operator: "lt" }],
    // A leading `__` is no separator.
    ["__in", { field: "__in", operator: "eq" }],
    ["status__between", { field: "status", operator: null, suffix: "between" }],
    ["score__constructor", { field: "score", operator: null, suffix: "constructor" }],
    ["status__", { field: "status", operator: null, suffix: "" }],
  ])("reads %j", (name, expected) => {
    expect(readFilterName(name)).toEqual(expected);
  });

  it("writes eq as the bare field and every other operator as a suffix", () => {
    expect(formatFilterName("status", "eq")).toBe("status");
    expect(formatFilterName("customer.name", "like")).toBe("customer.name__like");
    expect(formatFilterName("updated_at", "ge")).toBe("updated_at__ge");
  });

  it("round-trips: the name written for a field and operator reads back as them", () => {
    fc.assert(
      fc.property(fieldName, operator, (field, op) => {
        expect(readFilterName(formatFilterName(field, op))).toEqual({ field, operator: op });
      }),
    );
  });

  it.each(["status", "customer.name", "deliveries.items.info.sku", "updated_at", "a1.b_2"])("accepts the field name %j", (field) => {
    expect(isFieldName(field)).toBe(true);
  });

  it.each(["Status", "customer..name", ".name", "name.", "_limit", "status__in", "name_", "a-b", "né", "", "a b"])(
    "refuses the field name %j",
    (field) => {
      expect(isFieldName(field)).toBe(false);
    },
  );
});

describe("filter values", () => {
  it("splits __in values on commas, empty values included", () => {
    expect(splitInValues("new,approved")).toEqual(["new", "approved"]);
    expect(splitInValues("a,")).toEqual(["a", ""]);
    expect(splitInValues("")).toEqual([""]);
  });

  it("writes finite numbers so that they read back as the same number", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e20, max: 1e20 }), (value) => {
        fc.pre(!/e/i.test(String(value)));
        // `===`, not Object.is: -0 is written "0", which compares equal.
        expect(Number(formatFilterValue(value)) === value).toBe(true);
      }),
    );
  });

  it("writes Dates as ISO 8601 in UTC with milliseconds, reading back as the same instant", () => {
    fc.assert(
      fc.property(
        fc.date({ noInvalidDate: true, min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z") }),
        (date) => {
          const written = formatFilterValue(date);
          expect(written).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          expect(new Date(written).getTime()).toBe(date.getTime());
        },
      ),
    );
  });
});

describe("_sort", () => {
  it.each<[string, ReturnType<typeof readSortCriterion>]>([
    ["created_at", { ok: true, criterion: { field: "created_at" } }],
    ["created_at:asc", { ok: true, criterion: { field: "created_at", direction: "asc" } }],
    ["updated_at:desc", { ok: true, criterion: { field: "updated_at", direction: "desc" } }],
    ["created_at:up", { ok: false, field: "created_at", problem: "direction" }],
    ["created_at:", { ok: false, field: "created_at", problem: "direction" }],
    ["created_at:DESC", { ok: false, field: "created_at", problem: "direction" }],
    [":asc", { ok: false, field: "", problem: "malformed" }],
    ["", { ok: false, field: "", problem: "malformed" }],
    ["created_at:asc:desc", { ok: false, field: "created_at", problem: "malformed" }],
  ])("reads the criterion %j", (criterion, expected) => {
    expect(readSortCriterion(criterion)).toEqual(expected);
  });

  it("splits criteria on commas, left to right", () => {
    expect(splitSort("score:desc,name")).toEqual(["score:desc", "name"]);
  });

  it("writes every criterion with its direction, asc when none is given", () => {
    expect(formatSort([{ field: "created_at", direction: "desc" }, { field: "updated_at" }, { field: "id", direction: "asc" }])).toBe(
      "created_at:desc,updated_at:asc,id:asc",
    );
  });

  it("refuses to write an invalid field or the same field twice", () => {
    expect(() => formatSort([{ field: "Created" }])).toThrow(/Invalid sort field/);
    expect(() => formatSort([{ field: "id" }, { field: "id", direction: "desc" }])).toThrow(/given twice/);
  });

  it("refuses to read a bad criterion, checking the field name first", () => {
    expect(() => parseSort("created_at:up")).toThrow(/Invalid _sort criterion "created_at:up"/);
    expect(() => parseSort("a:asc:desc")).toThrow(/Invalid _sort criterion/);
    expect(() => parseSort(":asc")).toThrow(/Invalid sort field ""/);
    expect(() => parseSort("Bad:up")).toThrow(/Invalid sort field "Bad"/);
  });

  it("round-trips: what formatSort writes, parseSort reads back", () => {
    fc.assert(
      fc.property(sortCriteria, (criteria: SortCriterion[]) => {
        expect(parseSort(formatSort(criteria))).toEqual(criteria);
      }),
    );
  });
});

// Moved from list-query.test.ts with `parseListQuery`, which now lives here.
describe("parseListQuery", () => {
  it("reads back what formatListQuery wrote", () => {
    const query = {
      limit: 20,
      offset: 40,
      sort: [
        { field: "updated_at", direction: "desc" as const },
        { field: "id", direction: "asc" as const },
      ],
      filters: [
        { field: "status", op: "in" as const, value: ["new", "approved"] },
        { field: "customer.name", op: "like" as const, value: "Ana & Bia" },
        { field: "updated_at", op: "ge" as const, value: "2024-01-01T00:00:00.000Z" },
      ],
    };
    const params = formatListQuery(query);
    expect(parseListQuery(new URLSearchParams(params.toString()))).toEqual(query);
  });

  it("reads a bare sort field and an explicit __eq", () => {
    expect(parseListQuery(new URLSearchParams("_sort=created_at&status__eq=new"))).toEqual({
      sort: [{ field: "created_at" }],
      filters: [{ field: "status", op: "eq", value: "new" }],
    });
  });

  it("refuses unknown operators, bad sort criteria and bad counts", () => {
    expect(() => parseListQuery(new URLSearchParams("status__between=1"))).toThrow(/unknown operator __between/);
    expect(() => parseListQuery(new URLSearchParams("_sort=created_at:up"))).toThrow(/Invalid _sort/);
    expect(() => parseListQuery(new URLSearchParams("_limit=ten"))).toThrow(/Invalid _limit/);
    expect(() => parseListQuery(new URLSearchParams("_page=2"))).toThrow(/Invalid filter field/);
  });

  it("round-trips any query: format, send as text, parse gives back the same query", () => {
    fc.assert(
      fc.property(listQuery, (query) => {
        const sent = formatListQuery(query).toString();
        expect(parseListQuery(new URLSearchParams(sent))).toEqual(query);
      }),
    );
  });

  it("round-trips any query the other way: parse, format gives back the same text", () => {
    fc.assert(
      fc.property(listQuery, (query) => {
        const sent = formatListQuery(query).toString();
        expect(formatListQuery(parseListQuery(new URLSearchParams(sent))).toString()).toBe(sent);
      }),
    );
  });
});

describe("links", () => {
  it("writes the list's parameters, then _limit and _offset", () => {
    expect(formatListLink("/v1.0/marketplace/orders", [["status", "new"]], { limit: 50, offset: 100 })).toBe(
      "/v1.0/marketplace/orders?status=new&_limit=50&_offset=100",
    );
    expect(formatListLink("/things", [], { limit: 1, offset: 0 })).toBe("/things?_limit=1&_offset=0");
  });

  it("round-trips: a link written for a page reads back as that page, path and parameters", () => {
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join("/")}`);
    const params = fc.array(
      fc.tuple(
        fc.oneof(
          fieldName,
          fieldName.chain((field) => operator.map((op) => formatFilterName(field, op))),
        ),
        text,
      ),
      {
        maxLength: 4,
      },
    );
    fc.assert(
      fc.property(path, params, fc.integer({ min: 1, max: MAX_LIMIT }), fc.nat(), (linkPath, pairs, limit, offset) => {
        const link = parseListLink(formatListLink(linkPath, pairs, { limit, offset }));
        expect(link).toMatchObject({ path: linkPath, limit, offset });
        expect([...link.params]).toEqual(pairs);
      }),
    );
  });

  it("carries a query through a link: its parameters read back as the same query", () => {
    fc.assert(
      fc.property(listQuery, (query) => {
        const { limit, offset, ...rest } = query;
        const link = parseListLink(
          formatListLink("/v1.0/marketplace/orders", formatListQuery(rest), { limit: limit ?? 1, offset: offset ?? 0 }),
        );
        expect(parseListQuery(link.params)).toEqual(rest);
      }),
    );
  });
});
