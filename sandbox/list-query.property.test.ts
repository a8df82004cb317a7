// Any query string against the list endpoints answers 200 or 400 invalid_query, never a 500 or a
// crash: arbitrary keys and values, repeated parameters, odd operators, unicode (lone surrogates
// included) and raw text that was never URL-encoded.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListSpec } from "./list-query";
import { orderListSpec } from "./orders";
import { priceListSpec } from "./prices";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await obtainAccessToken(sandbox.url);
});
afterAll(() => sandbox.close());

const SUFFIXES = [
  "",
  "__eq",
  "__like",
  "__in",
  "__gt",
  "__gte",
  "__ge",
  "__lt",
  "__lte",
  "__le",
  "__ne",
  "__",
  "___",
  "__LIKE",
  "__constructor",
  "__proto__",
  "__in__like",
];
const SPECIAL_KEYS = ["_limit", "_offset", "_sort", "_sort:", "__proto__", "constructor", "toString", "", "_", "__", ".", "a..b"];
const SPECIAL_VALUES = [
  "",
  ",",
  ",,",
  "a,b",
  "asc",
  "desc",
  "true",
  "false",
  "null",
  "new",
  "approved",
  "sell",
  "BRL",
  "2026-01-01",
  "2026-02-30",
  "9999-99-99",
  "2026-01-01T00:00:00Z",
  "2026-01-01T25:61:00+99:99",
  "-1",
  "0",
  "1e309",
  "0x10",
  "9007199254740993",
  "%zz",
  "\u0000",
  "joão",
  "\ud800",
  "🙂",
  " ",
  "created_at:desc",
  "created_at:sideways",
  "status:asc,created_at",
  "id:",
];

function queryString(spec: ListSpec): fc.Arbitrary<string> {
  const fields = [...spec.fields.keys()];
  const key = fc.oneof(
    fc.tuple(fc.constantFrom(...fields), fc.constantFrom(...SUFFIXES)).map(([field, suffix]) => `${field}${suffix}`),
    fc.constantFrom(...SPECIAL_KEYS),
    fc.string({ unit: "binary", maxLength: 20 }),
  );
  const sortValue = fc
    .array(fc.tuple(fc.constantFrom(...fields, "nope"), fc.constantFrom("", ":asc", ":desc", ":x", "::")), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([field, direction]) => `${field}${direction}`).join(","));
  const value = fc.oneof(
    fc.string({ unit: "binary", maxLength: 30 }),
    fc.integer().map(String),
    fc.double().map(String),
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    fc.constantFrom(...SPECIAL_VALUES),
    sortValue,
  );
  return fc.oneof(
    // Parameters as a client would send them (repeated keys possible), URL-encoded.
    fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) => new URLSearchParams(pairs).toString()),
    // Raw text after the "?", stray %, & and = included.
    fc.string({ unit: "binary", maxLength: 60 }),
  );
}

describe.each([
  ["orders", "/v1.0/marketplace/orders", orderListSpec],
  ["prices", "/v1.0/marketplace/portfolios/prices", priceListSpec],
] as const)("%s list: any query string", (name, path, spec) => {
  it("answers 200 with a page or 400 invalid_query, never anything else", async () => {
    const statuses = new Map<number, number>();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(queryString(spec), async (query) => {
        runs++;
        const response = await sandbox.api(`${path}?${query}`, { token });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const body = (await response.json()) as { meta?: unknown; results?: unknown; error?: { code?: string } };
        if (response.status === 200) expect(Array.isArray(body.results) && body.meta !== undefined).toBe(true);
        else {
          expect(response.status).toBe(400);
          expect(body.error?.code).toBe("invalid_query");
        }
      }),
      { numRuns: 400 },
    );
    console.log(`${name} list: ${runs} query strings, answers ${JSON.stringify(Object.fromEntries(statuses))}`);
    // Both outcomes were exercised, not only one.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
  });
});
