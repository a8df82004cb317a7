// The generic list rules, checked on both lists (spec: Endpoints → Generic list rules; 7. List
// prices; 9. List orders; Limits): the envelope, the items' shape, `_limit` and its bounds,
// `_offset`, `meta.links`, `_sort` and every filter form of list-endpoints.ts.
import { z } from "zod";
import { describeZodFailure } from "@marketplace/api/errors";
import { DEFAULT_LIMIT, DEFAULT_OFFSET, parseListLink, readSortCriterion, splitSort, type ListLink } from "@marketplace/api/list-grammar";
import { listEnvelopeSchema, type ListMeta } from "@marketplace/api/schemas/list";
import { requireAccess } from "../access";
import { expectedIds } from "../filters";
import { describeExchange, requestLine, type Exchange } from "../http";
import { ensure, fail, prerequisite, skip, type Check, type Kit } from "../kit";
import type { ListEndpoint } from "../list-endpoints";
import { compareValues, readPath, recordId, type WireRecord } from "../records";
import { plural } from "../report";

/** The envelope alone (items as any object): whether the list is a list at all. */
const looseEnvelopeSchema = listEnvelopeSchema(z.record(z.string(), z.unknown()));

export interface Page {
  exchange: Exchange;
  meta: ListMeta;
  results: WireRecord[];
}

/** An offset no account reaches, for the page past the end. */
const FAR_OFFSET = 1_000_000;

export function readPage(exchange: Exchange): Page {
  if (exchange.status !== 200) fail(describeExchange(exchange));
  if (exchange.json === undefined) fail(`${requestLine(exchange)} answered a body that is not JSON`);
  const parsed = looseEnvelopeSchema.safeParse(exchange.json);
  if (!parsed.success) {
    fail(
      `${requestLine(exchange)} is not the list envelope {meta:{page:{limit,offset,count,max_limit}}, results:[…]}: ${describeZodFailure(parsed.error)}`,
    );
  }
  const { meta, results } = parsed.data;
  // Point 5: `count` is the number of records in this page.
  ensure(
    meta.page.count === results.length,
    `${requestLine(exchange)}: meta.page.count is ${meta.page.count} but results holds ${plural(results.length, "record")}`,
  );
  return { exchange, meta, results };
}

async function getPage(kit: Kit, list: ListEndpoint, query: [string, string][]): Promise<Page> {
  return readPage(await kit.api({ path: list.path, query }));
}

/** The answer to the list without parameters (the scope probe's), read once. */
export function firstPage(kit: Kit, list: ListEndpoint): Promise<Page> {
  return kit.once(`first-page:${list.key}`, async () => readPage(await requireAccess(kit, list.read)));
}

function envelopeCheckName(list: ListEndpoint): string {
  return `${list.key}.list.envelope`;
}

/** The first page, for checks that build on it: a broken envelope blocks them. */
export function sampleOf(kit: Kit, list: ListEndpoint): Promise<Page> {
  return prerequisite(envelopeCheckName(list), () => firstPage(kit, list));
}

/** Page size for the paging checks: three pages of it fit in the first page. */
function pagingSize(list: ListEndpoint, sample: Page): number {
  const n = sample.results.length;
  if (n < 3) skip(`needs at least 3 ${list.key} on the account; the first page holds ${n}`);
  return Math.min(10, Math.floor(n / 3));
}

function ids(records: readonly WireRecord[]): string {
  const shown = records.slice(0, 4).map(recordId).join(", ");
  return records.length > 4 ? `[${shown}, … ${records.length} in all]` : `[${shown}]`;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

// ---------------------------------------------------------------------------------------------
// Links (point 5; endpoint 9: "relative query strings or paths carrying _offset and _limit")

type LinkName = "previous" | "self" | "next";

/** Where a link leads from the page it is on; a bare `_offset=…&_limit=…` is a query string that lost its `?`. */
function linkTarget(link: string, from: URL): URL {
  const bareQuery = !link.includes("?") && !link.includes("/") && link.includes("=");
  return new URL(bareQuery ? `?${link}` : link, from);
}

function readLink(page: Page, name: LinkName, link: string): ListLink {
  const where = `meta.links.${name} of ${requestLine(page.exchange)}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("//")) {
    fail(`${where} is absolute (${link}): the spec gives relative query strings or paths (9. List orders)`);
  }
  const query = link.includes("?") ? link.slice(link.indexOf("?") + 1) : link.includes("=") ? link : "";
  const params = new URLSearchParams(query);
  ensure(params.has("_offset") && params.has("_limit"), `${where} (${link}) does not carry both _offset and _limit`);
  let parsed: ListLink;
  try {
    parsed = parseListLink(link);
  } catch (error) {
    fail(`${where} (${link}): ${error instanceof Error ? error.message : String(error)}`);
  }
  const target = linkTarget(link, page.exchange.url);
  ensure(target.pathname === page.exchange.url.pathname, `${where} (${link}) leads to ${target.pathname}, not to the list`);
  return parsed;
}

function expectLink(page: Page, name: LinkName, link: string | null | undefined, expected: { offset: number; limit: number }): ListLink {
  ensure(
    typeof link === "string",
    `meta.links.${name} of ${requestLine(page.exchange)} is ${String(link)}; expected a link to offset ${expected.offset}`,
  );
  const parsed = readLink(page, name, link);
  ensure(
    parsed.offset === expected.offset && parsed.limit === expected.limit,
    `meta.links.${name} of ${requestLine(page.exchange)} (${link}) points at _offset=${parsed.offset}&_limit=${parsed.limit}; expected _offset=${expected.offset}&_limit=${expected.limit}`,
  );
  return parsed;
}

interface MiddlePage {
  page: Page;
  size: number;
  links: NonNullable<ListMeta["links"]>;
}

/** The second page of `size` records, with its links checked. Skipped when a price list has no links. */
function middlePage(kit: Kit, list: ListEndpoint): Promise<MiddlePage> {
  return kit.once(`middle-page:${list.key}`, async () => {
    const sample = await sampleOf(kit, list);
    const size = pagingSize(list, sample);
    const page = await getPage(kit, list, [
      ["_limit", String(size)],
      ["_offset", String(size)],
    ]);
    const links = page.meta.links;
    if (!links) {
      if (list.linksRequired)
        fail(
          `${requestLine(page.exchange)} has no meta.links: endpoint 9 and the generic list rules (point 5) give previous, self and next`,
        );
      skip("no meta.links: the price list response of endpoint 7 shows only meta.page");
    }
    expectLink(page, "self", links.self, { offset: size, limit: size });
    expectLink(page, "previous", links.previous, { offset: 0, limit: size });
    // The first page holds at least three pages of this size, so a third page exists.
    expectLink(page, "next", links.next, { offset: 2 * size, limit: size });
    return { page, size, links };
  });
}

// ---------------------------------------------------------------------------------------------
// Checks

function sortCheck(list: ListEndpoint, value: string): Check {
  const criteria = splitSort(value).map((text) => {
    const reading = readSortCriterion(text);
    if (!reading.ok) throw new Error(`invalid sort ${value} in list-endpoints.ts`);
    return { field: reading.criterion.field, direction: reading.criterion.direction ?? "asc" };
  });
  const [primary] = criteria;
  return {
    name: `${list.key}.sort.${value}`,
    run: async (kit) => {
      const sample = await sampleOf(kit, list);
      const limit = Math.min(DEFAULT_LIMIT, sample.meta.page.max_limit);
      const page = await getPage(kit, list, [
        ["_sort", value],
        ["_limit", String(limit)],
      ]);
      const { results } = page;
      if (results.length < 2) skip(`fewer than 2 ${list.key} to order`);
      let ties = 0;
      for (let index = 1; index < results.length; index++) {
        const before = results[index - 1] as WireRecord;
        const after = results[index] as WireRecord;
        for (const [position, { field, direction }] of criteria.entries()) {
          const a = readPath(before, field);
          const b = readPath(after, field);
          const order = compareValues(field, a, b);
          ensure(
            !Number.isNaN(order),
            `results[${index - 1}] and results[${index}] have no comparable ${field} (${String(a)}, ${String(b)})`,
          );
          if (order === 0) {
            if (position === 0) ties++;
            continue;
          }
          ensure(
            direction === "asc" ? order < 0 : order > 0,
            `${requestLine(page.exchange)}: results[${index}] (${field} ${String(b)}) comes after results[${index - 1}] (${field} ${String(a)})`,
          );
          break;
        }
      }
      const order = criteria.map(({ field, direction }) => `${field} ${direction}`).join(", then ");
      const note =
        criteria.length < 2 || !primary
          ? ""
          : ties > 0
            ? `; ${ties} ties on ${primary.field} ordered by the next criteria`
            : `; no ties on ${primary.field} in this page, so the later criteria decided nothing`;
      return `${plural(results.length, "record")} ordered by ${order}${note}`;
    },
  };
}

function filterCheck(list: ListEndpoint, filter: ListEndpoint["filters"][number]): Check {
  return {
    name: `${list.key}.filter.${filter.names.join("&")}`,
    run: async (kit) => {
      const sample = await sampleOf(kit, list);
      const probe = filter.build(sample.results);
      if (typeof probe === "string") skip(probe);
      const page = await getPage(kit, list, [...probe.params, ["_limit", String(sample.meta.page.max_limit)]]);
      const fields = [...new Set(probe.params.map(([name]) => name.replace(/__[a-z]+$/, "")))];
      const wrong = page.results.find((record) => !probe.accepts(record));
      if (wrong) {
        const values = fields.map((field) => `${field} ${JSON.stringify(readPath(wrong, field))}`).join(", ");
        fail(`${requestLine(page.exchange)} answered id ${recordId(wrong)} with ${values}: not ${probe.meaning}`);
      }
      const expected = expectedIds(probe, sample.results);
      const answered = page.results.map(recordId);
      if (probe.exhaustive) {
        ensure(
          sameIds(expected, answered),
          `${requestLine(page.exchange)} answered ${ids(page.results)}; expected exactly [${expected.join(", ")}]`,
        );
      } else if (page.results.length < page.meta.page.limit) {
        // The whole answer fits in this page: every record of the first page that matches is in it.
        const missing = expected.filter((id) => !answered.includes(id));
        ensure(
          missing.length === 0,
          `${requestLine(page.exchange)} lacks ${missing.length} record(s) with ${probe.meaning}, e.g. id ${missing[0]}`,
        );
      } else {
        ensure(
          page.results.length > 0 || expected.length === 0,
          `${requestLine(page.exchange)} answered nothing, but id ${expected[0]} has ${probe.meaning}`,
        );
      }
      const found =
        expected.length > 0
          ? `; the first page's matching ${plural(expected.length, "record")} ${expected.length === 1 ? "is" : "are"} in it`
          : "";
      return `${plural(page.results.length, "record")}, each with ${probe.meaning}${found}`;
    },
  };
}

export function listChecks(list: ListEndpoint): Check[] {
  const name = (suffix: string) => `${list.key}.${suffix}`;
  return [
    {
      name: envelopeCheckName(list),
      run: async (kit) => {
        const { meta, results } = await firstPage(kit, list);
        return `GET ${list.path} answered {meta, results}: meta.page ${JSON.stringify(meta.page)}, ${plural(results.length, "record")}`;
      },
    },
    {
      name: name("list.items"),
      run: async (kit) => {
        const { results } = await sampleOf(kit, list);
        if (results.length === 0) skip(`no ${list.key} on the account to check`);
        const parsed = z.object({ results: z.array(list.itemSchema) }).safeParse({ results });
        if (!parsed.success)
          fail(`a record lacks the spec's shape (packages/marketplace/src/schemas): ${describeZodFailure(parsed.error)}`);
        return `${plural(results.length, "record")} checked: every field of the spec is there (packages/marketplace/src/schemas)`;
      },
    },
    {
      name: name("list.defaults"),
      run: async (kit) => {
        const { page } = (await sampleOf(kit, list)).meta;
        ensure(page.max_limit >= 1, `meta.page.max_limit is ${page.max_limit}`);
        const expected = Math.min(DEFAULT_LIMIT, page.max_limit);
        ensure(page.limit === expected, `without _limit, meta.page.limit is ${page.limit}; the spec's default is ${DEFAULT_LIMIT}`);
        ensure(
          page.offset === DEFAULT_OFFSET,
          `without _offset, meta.page.offset is ${page.offset}; the spec's default is ${DEFAULT_OFFSET}`,
        );
        ensure(page.count <= page.limit, `meta.page.count ${page.count} is above meta.page.limit ${page.limit}`);
        return `without parameters: limit ${page.limit}, offset ${page.offset}, ${plural(page.count, "record")}, max_limit ${page.max_limit}`;
      },
    },
    {
      name: name("list.limit-one"),
      run: async (kit) => {
        const sample = await sampleOf(kit, list);
        const page = await getPage(kit, list, [["_limit", "1"]]);
        ensure(page.meta.page.limit === 1, `${requestLine(page.exchange)}: meta.page.limit is ${page.meta.page.limit}`);
        const expected = Math.min(1, sample.results.length);
        ensure(page.results.length === expected, `${requestLine(page.exchange)} answered ${plural(page.results.length, "record")}`);
        return `_limit=1 answered ${page.results.length} record with meta.page.limit 1`;
      },
    },
    {
      name: name("list.max-limit"),
      run: async (kit) => {
        const sample = await sampleOf(kit, list);
        const max = sample.meta.page.max_limit;
        const page = await getPage(kit, list, [["_limit", String(max)]]);
        ensure(
          page.meta.page.limit === max,
          `${requestLine(page.exchange)}: meta.page.limit is ${page.meta.page.limit}, not max_limit ${max}`,
        );
        ensure(
          page.results.length <= max,
          `${requestLine(page.exchange)} answered ${plural(page.results.length, "record")}, more than max_limit ${max}`,
        );
        ensure(
          page.results.length >= sample.results.length,
          `${requestLine(page.exchange)} answered ${plural(page.results.length, "record")}, fewer than the default page (${sample.results.length})`,
        );
        return `_limit=${max} (max_limit) answered ${plural(page.results.length, "record")}`;
      },
    },
    {
      name: name("list.above-max-limit"),
      run: async (kit) => {
        const max = (await sampleOf(kit, list)).meta.page.max_limit;
        const exchange = await kit.api({ path: list.path, query: [["_limit", String(max + 1)]] });
        // Limits: "Behaviour when _limit is above max_limit: not shown". Refusing or clamping are
        // both fine; answering more than max_limit records is not.
        if (exchange.status === 400) return `_limit=${max + 1} was refused with 400 (the spec leaves this open)`;
        const page = readPage(exchange);
        ensure(
          page.meta.page.limit <= max && page.results.length <= max,
          `${requestLine(exchange)} answered meta.page.limit ${page.meta.page.limit} and ${plural(page.results.length, "record")}: above max_limit ${max}`,
        );
        return `_limit=${max + 1} was clamped: meta.page.limit ${page.meta.page.limit}, ${plural(page.results.length, "record")}`;
      },
    },
    {
      name: name("list.offset"),
      run: async (kit) => {
        const sample = await sampleOf(kit, list);
        const size = pagingSize(list, sample);
        const sort: [string, string] = ["_sort", list.stableSort];
        const both = await getPage(kit, list, [sort, ["_limit", String(2 * size)]]);
        const second = await getPage(kit, list, [sort, ["_limit", String(size)], ["_offset", String(size)]]);
        ensure(second.meta.page.offset === size, `${requestLine(second.exchange)}: meta.page.offset is ${second.meta.page.offset}`);
        ensure(second.meta.page.limit === size, `${requestLine(second.exchange)}: meta.page.limit is ${second.meta.page.limit}`);
        const expected = both.results.slice(size, 2 * size);
        ensure(
          sameIds(expected.map(recordId), second.results.map(recordId)),
          `${requestLine(second.exchange)} answered ${ids(second.results)}; records ${size + 1} to ${2 * size} of ${requestLine(both.exchange)} are ${ids(expected)}`,
        );
        return `_offset=${size}&_limit=${size} answered records ${size + 1} to ${2 * size} of _sort=${list.stableSort}`;
      },
    },
    {
      name: name("list.offset-past-end"),
      run: async (kit) => {
        const sample = await sampleOf(kit, list);
        if ((sample.meta.total ?? 0) > FAR_OFFSET) skip(`the account holds more than ${FAR_OFFSET} ${list.key}`);
        const page = await getPage(kit, list, [["_offset", String(FAR_OFFSET)]]);
        ensure(page.results.length === 0, `${requestLine(page.exchange)} answered ${plural(page.results.length, "record")}`);
        ensure(page.meta.page.offset === FAR_OFFSET, `${requestLine(page.exchange)}: meta.page.offset is ${page.meta.page.offset}`);
        return `_offset=${FAR_OFFSET} answered an empty page`;
      },
    },
    {
      name: name("list.links"),
      run: async (kit) => {
        const { page, size } = await middlePage(kit, list);
        const start = await getPage(kit, list, [["_limit", String(size)]]);
        const previous = start.meta.links?.previous ?? null;
        // Nothing comes before the first page: no link, or one back to the start.
        if (previous !== null) expectLink(start, "previous", previous, { offset: 0, limit: size });
        if (start.meta.links) expectLink(start, "next", start.meta.links.next, { offset: size, limit: size });
        return `relative links at ${requestLine(page.exchange)}: previous → 0, self → ${size}, next → ${2 * size}; at offset 0 previous is ${previous ?? "null"}`;
      },
    },
    {
      name: name("list.links-follow"),
      run: async (kit) => {
        const { page, size, links } = await prerequisite(name("list.links"), () => middlePage(kit, list));
        const shown = new Set(page.results.map(recordId));
        const reached: string[] = [];
        for (const [link, offset] of [
          [links.next, 2 * size],
          [links.previous, 0],
        ] as const) {
          if (link === null) continue;
          const target = readPage(await kit.api({ path: linkTarget(link, page.exchange.url).toString() }));
          ensure(
            target.meta.page.offset === offset,
            `following ${link} answered meta.page.offset ${target.meta.page.offset}, not ${offset}`,
          );
          const repeated = target.results.find((record) => shown.has(recordId(record)));
          ensure(!repeated, () => `following ${link} answered id ${recordId(repeated as WireRecord)} again`);
          reached.push(`${link} → offset ${offset}, ${plural(target.results.length, "record")}`);
        }
        return `followed ${reached.join("; ")}`;
      },
    },
    ...list.sorts.map((value) => sortCheck(list, value)),
    ...list.filters.map((filter) => filterCheck(list, filter)),
  ];
}
