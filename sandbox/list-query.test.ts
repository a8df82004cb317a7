import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldCatalogueFromSchema, listRecords, type ListSpec } from "./list-query";

const recordSchema = z.object({
  id: z.string(),
  name: z.string(),
  score: z.number(),
  active: z.boolean(),
  kind: z.enum(["a", "b"]),
  at: z.iso.datetime(),
  owner: z.object({ city: z.string(), birth: z.iso.date() }),
  tags: z.array(z.object({ label: z.string() })),
  extras: z.record(z.string(), z.unknown()),
});
type TestRecord = z.infer<typeof recordSchema>;

const records: TestRecord[] = [
  {
    id: "1",
    name: "João Silva",
    score: 10,
    active: true,
    kind: "a",
    at: "2026-01-01T00:00:00.000Z",
    owner: { city: "São Paulo", birth: "1990-01-01" },
    tags: [{ label: "x" }],
    extras: {},
  },
  {
    id: "2",
    name: "Maria Souza",
    score: 30,
    active: false,
    kind: "b",
    at: "2026-01-02T00:00:00.000Z",
    owner: { city: "Recife", birth: "1985-05-05" },
    tags: [],
    extras: {},
  },
  {
    id: "3",
    name: "joana silveira",
    score: 20,
    active: true,
    kind: "b",
    at: "2026-01-03T00:00:00.000Z",
    owner: { city: "Curitiba", birth: "2000-12-31" },
    tags: [{ label: "y" }, { label: "x" }],
    extras: {},
  },
  {
    id: "4",
    name: "Ana Lima",
    score: 20,
    active: true,
    kind: "a",
    at: "2026-01-04T00:00:00.000Z",
    owner: { city: "São Paulo", birth: "1970-07-07" },
    tags: [{ label: "z" }],
    extras: {},
  },
];

const spec: ListSpec = {
  path: "/things",
  fields: fieldCatalogueFromSchema(recordSchema),
  defaultSort: [{ field: "at", direction: "asc" }],
  naturalOrder: "at",
};
const source = { items: records, version: 1 };
const ids = (query: string) => listRecords(source, new URLSearchParams(query), spec).results.map((record) => record.id);

describe("list rules engine", () => {
  it("derives filterable fields from a schema, dotted paths and arrays included", () => {
    expect([...spec.fields.keys()].sort()).toEqual([
      "active",
      "at",
      "id",
      "kind",
      "name",
      "owner.birth",
      "owner.city",
      "score",
      "tags.label",
    ]);
    expect(spec.fields.get("tags.label")?.multi).toBe(true);
    expect(spec.fields.get("at")?.kind).toBe("datetime");
  });

  it("applies every filter form", () => {
    expect(ids("kind=a")).toEqual(["1", "4"]);
    expect(ids("name__like=SILV")).toEqual(["1", "3"]);
    expect(ids("name__like=joao")).toEqual(["1"]);
    expect(ids("score__in=10,30")).toEqual(["1", "2"]);
    expect(ids("score__gt=10")).toEqual(["2", "3", "4"]);
    expect(ids("score__gte=20&score__lt=30")).toEqual(["3", "4"]);
    expect(ids("score__lte=10")).toEqual(["1"]);
    expect(ids("active=false")).toEqual(["2"]);
    expect(ids("at__ge=2026-01-02&at__le=2026-01-03T00:00:00Z")).toEqual(["2", "3"]);
    expect(ids("owner.city=São Paulo")).toEqual(["1", "4"]);
    expect(ids("owner.birth__lt=1986-01-01")).toEqual(["2", "4"]);
    expect(ids("tags.label=x")).toEqual(["1", "3"]);
    expect(ids("score__eq=20")).toEqual(["3", "4"]);
  });

  it("sorts by several fields left to right; default direction asc", () => {
    expect(ids("_sort=score:desc,name")).toEqual(["2", "4", "3", "1"]);
    expect(ids("_sort=at:desc")).toEqual(["4", "3", "2", "1"]);
    expect(ids("_sort=kind,at:desc")).toEqual(["4", "1", "3", "2"]);
  });

  it("paginates and reports meta", () => {
    const envelope = listRecords(source, new URLSearchParams("kind=b&_limit=1&_offset=1"), spec);
    expect(envelope.meta).toEqual({
      page: { limit: 1, offset: 1, count: 1, max_limit: 200 },
      links: { previous: "/things?kind=b&_limit=1&_offset=0", self: "/things?kind=b&_limit=1&_offset=1", next: null },
      filters: [{ field: "kind", operator: "eq", value: "b" }],
      sort: [{ field: "at", direction: "asc" }],
      total: 2,
    });
  });

  it("rebuilds a cached sorted view when the source changes", () => {
    const mutable = { items: [...records], version: 1 };
    const first = listRecords(mutable, new URLSearchParams("_sort=score:desc"), spec).results.map((record) => record.id);
    expect(first[0]).toBe("2");
    mutable.items.push({ ...records[0]!, id: "5", score: 99 });
    mutable.version++;
    expect(listRecords(mutable, new URLSearchParams("_sort=score:desc"), spec).results[0]?.id).toBe("5");
  });

  it("finds eq and __in matches by value, and finds them again after the source changed", () => {
    const mutable = { items: records.map((record) => ({ ...record })), version: 1 };
    const find = (query: string) => listRecords(mutable, new URLSearchParams(query), spec).results.map((record) => record.id);
    expect(find("id__in=4,2,9")).toEqual(["2", "4"]);
    expect(find("kind=b")).toEqual(["2", "3"]);
    mutable.items[0] = { ...mutable.items[0]!, kind: "b" };
    mutable.version++;
    expect(find("kind=b")).toEqual(["1", "2", "3"]);
    expect(find("kind__in=a")).toEqual(["4"]);
    expect(find("id=1&kind=a")).toEqual([]);
  });

  it("answers eq and __in exactly like testing every record, whatever the values", () => {
    const many = fc.array(fc.record({ score: fc.integer({ min: 0, max: 9 }), kind: fc.constantFrom("a" as const, "b" as const) }), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(
        many,
        fc.uniqueArray(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom("a", "b"),
        (rows, wanted, kind) => {
          const items = rows.map((row, index) => ({
            ...records[0]!,
            ...row,
            id: String(index),
            at: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
          }));
          const list = (query: string) =>
            listRecords({ items, version: 1 }, new URLSearchParams(`${query}&_limit=200`), spec).results.map((record) => record.id);
          const expected = items.filter((item) => wanted.includes(item.score) && item.kind === kind).map((item) => item.id);
          expect(list(`score__in=${wanted.join(",")}&kind=${kind}`)).toEqual(expected);
          expect(list(`score=${wanted[0]}`)).toEqual(items.filter((item) => item.score === wanted[0]).map((item) => item.id));
        },
      ),
    );
  });

  it.each([
    ["nope=1", "nope"],
    ["name__approx=x", "name__approx"],
    ["score=abc", "score"],
    ["active=yes", "active"],
    ["active__gt=true", "active__gt"],
    ["score__like=1", "score__like"],
    ["kind=c", "kind"],
    ["kind__in=a,", "kind__in"],
    ["at__gte=01/02/2026", "at__gte"],
    ["owner.birth=2000-13-45x", "owner.birth"],
    ["extras=1", "extras"],
    ["_sort=tags.label", "_sort"],
    ["_sort=name:sideways", "_sort"],
    ["_limit=-1", "_limit"],
    ["_offset=1.5", "_offset"],
    ["kind=a&kind=b", "kind"],
    // Object.prototype's members are not operators.
    ["score__constructor=1", "score__constructor"],
    ["name__toString=x", "name__toString"],
    ["kind__hasOwnProperty=a", "kind__hasOwnProperty"],
  ])("%s → 400 naming %s", (query, parameter) => {
    expect(() => ids(query)).toThrow(expect.objectContaining({ status: 400, code: "invalid_query", extra: { parameter } }));
  });
});

describe("list rules engine on a larger source", () => {
  // 400 records: selective filters take the gather-and-rank path, broad ones walk the view.
  const many: TestRecord[] = Array.from({ length: 400 }, (_, i) => ({
    id: String(i),
    name: i % 50 === 0 ? `Zé Rare ${i}` : `Common ${i % 7}`,
    score: (i * 37) % 101,
    active: i % 3 === 0,
    kind: i % 2 === 0 ? "a" : "b",
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    owner: { city: i % 5 === 0 ? "Recife" : "Natal", birth: "1990-01-01" },
    tags: [],
    extras: {},
  }));
  const big = { items: many, version: 1 };
  const run = (query: string) => listRecords(big, new URLSearchParams(query), spec);

  function naive(filter: (record: TestRecord) => boolean, compare: (a: TestRecord, b: TestRecord) => number): string[] {
    return many
      .filter(filter)
      .sort(compare)
      .map((record) => record.id);
  }

  it.each([
    [
      "name__like=ze&_sort=score:desc",
      (r: TestRecord) => r.name.startsWith("Zé"),
      (a: TestRecord, b: TestRecord) => b.score - a.score || Number(a.id) - Number(b.id),
    ],
    [
      "name__like=rare&_sort=at:desc",
      (r: TestRecord) => r.name.startsWith("Zé"),
      (a: TestRecord, b: TestRecord) => Number(b.id) - Number(a.id),
    ],
    [
      "kind=a&_sort=score",
      (r: TestRecord) => r.kind === "a",
      (a: TestRecord, b: TestRecord) => a.score - b.score || Number(a.id) - Number(b.id),
    ],
    [
      "kind=b&owner.city=Recife&_sort=score:desc",
      (r: TestRecord) => r.kind === "b" && r.owner.city === "Recife",
      (a: TestRecord, b: TestRecord) => b.score - a.score || Number(a.id) - Number(b.id),
    ],
  ])("%s matches a naive filter and sort, page by page", (query, filter, compare) => {
    const expected = naive(filter, compare);
    const got: string[] = [];
    for (let offset = 0; offset < expected.length + 7; offset += 7) {
      const page = run(`${query}&_limit=7&_offset=${offset}`);
      expect(page.meta.total).toBe(expected.length);
      got.push(...page.results.map((record) => record.id));
    }
    expect(got).toEqual(expected);
    // Cached bitmaps are not corrupted by combining filters.
    expect(run("kind=b&_limit=200").meta.total).toBe(200);
  });
});

describe("endpoint rules (strict unless lenient)", () => {
  const ruled: ListSpec = { ...spec, rules: { sortCriteria: ["at:asc", "at:desc", "score:desc"], geLeFields: ["at"] } };
  const run = (query: string, lenient = false) =>
    listRecords(source, new URLSearchParams(query), ruled, { lenient }).results.map((record) => record.id);

  it("accepts the listed sort criteria, several of them left to right, and __ge/__le on the listed fields", () => {
    expect(run("_sort=score:desc,at:desc")).toEqual(["2", "4", "3", "1"]);
    expect(run("at__ge=2026-01-02&at__le=2026-01-03")).toEqual(["2", "3"]);
    expect(run("score__gte=20&name__like=a&kind__in=a,b")).toEqual(["2", "3", "4"]);
  });

  it.each([
    ["_sort=name", "_sort"],
    ["_sort=at", "_sort"],
    ["_sort=score:asc", "_sort"],
    ["_sort=at:asc,at:desc", "_sort"],
    ["score__ge=10", "score__ge"],
    ["name__le=x", "name__le"],
    ["kind__eq=a", "kind__eq"],
  ])("%s → 400 naming %s; lenient, the old meaning", (query, parameter) => {
    expect(() => run(query)).toThrow(expect.objectContaining({ status: 400, code: "invalid_query", extra: { parameter } }));
    expect(() => run(query, true)).not.toThrow();
  });

  it("a list without rules takes every form", () => {
    expect(ids("_sort=name&score__ge=20&kind__eq=a")).toEqual(["4"]);
  });
});
