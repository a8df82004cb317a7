import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sampleSku } from "@marketplace/api/schemas/fixtures";
import type { SkuImportResponse } from "@marketplace/api/schemas/sku";
import { SEED_USER_IDS } from "./seed";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let sandbox: TestSandbox;
let token: string;
const PATH = "/v1.0/marketplace/portfolios/skus";

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.handle.reset();
  token = await obtainAccessToken(sandbox.url);
});

async function createSku(
  body: unknown,
  init: { token?: string; raw?: string; query?: string } = {},
): Promise<{ status: number; body: SkuImportResponse }> {
  const response = await sandbox.api(`${PATH}${init.query ?? ""}`, {
    method: "POST",
    token: init.token ?? token,
    ...(init.raw !== undefined ? { body: init.raw, headers: { "Content-Type": "application/json" } } : { json: body }),
  });
  return { status: response.status, body: (await response.json()) as SkuImportResponse };
}

const skuCount = () => sandbox.handle.store.skusByUser.get(SEED_USER_IDS.seller)?.length ?? 0;

describe("POST /v1.0/marketplace/portfolios/skus", () => {
  it("creates a SKU: 201, statusCode 0, a generated ObjectId", async () => {
    const before = skuCount();
    const { status, body } = await createSku(sampleSku("NEW-1"));
    expect(status).toBe(201);
    expect(body).toMatchObject({ sku: "NEW-1", statusCode: 0, statusMessage: "The sku was imported and will be processed", errors: [] });
    expect(body.id).toMatch(/^[0-9a-f]{24}$/);
    expect(body.token).toMatch(/^[0-9a-f]+$/);
    expect(body.data?.title.pt_BR).toBe("Camiseta Teste Algodão");
    expect(skuCount()).toBe(before + 1);
  });

  it("an identical SKU again → 200, the same id, nothing created", async () => {
    const first = await createSku(sampleSku("SAME-1"));
    const before = skuCount();
    const again = await createSku(sampleSku("SAME-1"));
    expect(again.status).toBe(200);
    expect(again.body.statusCode).toBe(0);
    expect(again.body.id).toBe(first.body.id);
    expect(skuCount()).toBe(before);
  });

  it("a changed SKU with a known code is a new record (SKUs are immutable)", async () => {
    const first = await createSku(sampleSku("CHG-1"));
    const second = await createSku({ ...sampleSku("CHG-1"), brand: "Outra Marca" });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it("validation failures → 400, statusCode -4, errors naming each field", async () => {
    const { status, body } = await createSku({
      ...sampleSku(),
      title: { en_US: "No Portuguese" },
      identifiers: [{ type: "EAN", value: "7891000315508" }],
      tags: [""],
    });
    expect(status).toBe(400);
    expect(body.statusCode).toBe(-4);
    expect(body.statusMessage).toBe("An sku had problems on import");
    expect(body.id).toBeNull();
    expect(body.errors.map((error) => error.field).sort()).toEqual(["identifiers[0].value", "tags[0]", "title.pt_BR"]);
  });

  it("malformed JSON or a non-object → 400, statusCode -4", async () => {
    const malformed = await createSku(null, { raw: "{nope" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.statusCode).toBe(-4);
    const array = await createSku([sampleSku()]);
    expect(array.status).toBe(400);
    expect(array.body.statusCode).toBe(-4);
  });

  it.each([
    ["no body", ""],
    ["an empty object", "{}"],
    ["null", "null"],
  ])("%s → 400, statusCode -3", async (_name, raw) => {
    const { status, body } = await createSku(null, { raw });
    expect(status).toBe(400);
    expect(body).toMatchObject({ statusCode: -3, statusMessage: "There is no sku to import" });
  });

  it("the path accepts no parameters → 400, statusCode -4", async () => {
    const { status, body } = await createSku(sampleSku(), { query: "?dryRun=true" });
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ field: "query.dryRun", message: "this path accepts no parameters" }]);
  });

  it("no token → 401 in the common error shape", async () => {
    const response = await sandbox.api(PATH, { method: "POST", json: sampleSku() });
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_token");
  });

  it("a token without portfolio:read and portfolio:write → 403, statusCode -6", async () => {
    const readOnly = await obtainAccessToken(sandbox.url, { scopes: ["portfolio:write", "basic_user_info"] });
    const { status, body } = await createSku(sampleSku(), { token: readOnly });
    expect(status).toBe(403);
    expect(body).toMatchObject({ statusCode: -6, statusMessage: "Without permission" });
  });

  it("too many requests → 429, statusCode -2, Retry-After", async () => {
    sandbox.handle.faults.apply({ rateLimitPerMinute: 1 });
    expect((await createSku(sampleSku("RL-1"))).status).toBe(201);
    const response = await sandbox.api(PATH, { method: "POST", token, json: sampleSku("RL-2") });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await response.json()) as SkuImportResponse).toMatchObject({ statusCode: -2, statusMessage: "The request was blocked" });
  });

  it("import down → 503, statusCode -5", async () => {
    sandbox.handle.faults.apply({ importDown: true });
    const { status, body } = await createSku(sampleSku());
    expect(status).toBe(503);
    expect(body).toMatchObject({ statusCode: -5, statusMessage: "Import is down" });
  });

  it("the rejectSkus fault refuses a valid SKU with statusCode -4 and the errors it names, and nothing is created", async () => {
    const errors = [{ field: "identifiers[1].value", message: "this EAN belongs to another seller's product" }];
    sandbox.handle.faults.apply({ rejectSkus: errors });
    const { status, body } = await createSku(sampleSku("REJECTED-1"));
    expect(status).toBe(400);
    expect(body).toMatchObject({ statusCode: -4, id: null, sku: "REJECTED-1", errors });
    // An invalid SKU still gets the schema's own errors.
    const invalid = await createSku({ ...sampleSku("REJECTED-2"), code: "" });
    expect(invalid.body.errors.map((error) => error.field)).toContain("code");

    sandbox.handle.faults.apply({ rejectSkus: null });
    expect((await createSku(sampleSku("REJECTED-1"))).status).toBe(201);
  });

  it("an unexpected error → 500, statusCode -1", async () => {
    sandbox.handle.faults.apply({ errorRate: 1 });
    const { status, body } = await createSku(sampleSku());
    expect(status).toBe(500);
    expect(body).toMatchObject({ statusCode: -1, statusMessage: "Unexpected error" });
  });
});
