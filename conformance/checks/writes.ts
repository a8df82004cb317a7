// With --allow-writes: SKU and price creation (spec: Endpoints 4–6; Resources → SKU, Price; Errors
// → SKU import status codes). SKUs cannot be deleted (they are immutable records), so the kit
// creates one unavailable test SKU per run and prices for it, nothing else.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { ENDPOINTS } from "@marketplace/api/client";
import { describeZodFailure } from "@marketplace/api/errors";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import { priceCreateResponseSchema, type PriceCreateInput } from "@marketplace/api/schemas/price";
import { skuImportResponseSchema, type SkuCreateInput } from "@marketplace/api/schemas/sku";
import { describeExchange, requestLine, type Exchange } from "../http";
import { ensure, fail, skip, type Check, type Kit } from "../kit";
import { readPage } from "./lists";
import { priceReadSchema } from "./reads";

export function requireWrites(kit: Kit): void {
  if (!kit.options.allowWrites) skip("needs --allow-writes");
}

/** A code no one else uses: the run's time and a random part (SKU codes are 1 to 50 characters). */
export function conformanceSkuCode(): string {
  return `CONFORMANCE-${Date.now().toString(36).toUpperCase()}-${randomBytes(3).toString("hex").toUpperCase()}`;
}

/** Every required field of the SKU table, and `available: false`: the product is never for sale. */
export function conformanceSku(code: string): SkuCreateInput {
  const centimetre = { value: 1, unit: "cm" } as const;
  return {
    code,
    title: { pt_BR: "Produto de teste do kit de conformidade (não vender)" },
    variation_key: "",
    condition: "new",
    brand: "Conformance",
    tags: [],
    available: false,
    origin: "national",
    datasheet: {},
    dimensions: [{ name: "package", height: centimetre, width: centimetre, length: centimetre, weight: { value: 10, unit: "g" } }],
    description: {},
    identifiers: [],
    attributes: {},
    medias: [],
    extras: {},
  };
}

export function conformancePrice(sku: string, overrides: Partial<PriceCreateInput> = {}): PriceCreateInput {
  return { type: "sell", sku, value: 99_990, currency: "BRL", normalizer: 100, extras: {}, ...overrides };
}

function parsed<S extends z.ZodType>(schema: S, exchange: Exchange, what: string): z.infer<S> {
  const result = schema.safeParse(exchange.json);
  if (!result.success)
    fail(`${requestLine(exchange)} answered ${exchange.status} without the spec's ${what}: ${describeZodFailure(result.error)}`);
  return result.data;
}

/** A 403 means the token lacks the scope; the check is then skipped, once the answer is checked. */
function skipOnForbidden(exchange: Exchange, scopes: readonly string[], answer: z.ZodType, forbiddenCode?: number): void {
  if (exchange.status !== 403) return;
  if (forbiddenCode !== undefined) {
    const body = answer.safeParse(exchange.json);
    // Errors → SKU import status codes: -6 "Without permission".
    ensure(
      body.success && (body.data as { statusCode: number }).statusCode === forbiddenCode,
      `${describeExchange(exchange)}: expected statusCode ${forbiddenCode}`,
    );
  }
  skip(`the token lacks ${scopes.join(" and ")}: answered 403`);
}

function createSku(kit: Kit, body: SkuCreateInput): Promise<Exchange> {
  return kit.api({ method: "POST", path: ENDPOINTS.createSku.path, json: body });
}

function createPrice(kit: Kit, body: PriceCreateInput): Promise<Exchange> {
  return kit.api({ method: "POST", path: ENDPOINTS.createPrice.path, json: body });
}

function priceUrl(id: string): string {
  return `${ENDPOINTS.getPrice.path}/${encodeURIComponent(id)}`;
}

function requireSku(kit: Kit): { code: string; id: string } {
  requireWrites(kit);
  if (!kit.state.sku) skip("blocked: skus.create created no SKU");
  return kit.state.sku;
}

async function priceAccepted(kit: Kit, body: PriceCreateInput): Promise<{ id: string; exchange: Exchange }> {
  const exchange = await createPrice(kit, body);
  skipOnForbidden(exchange, ENDPOINTS.createPrice.scopes, priceCreateResponseSchema);
  ensure(exchange.status >= 200 && exchange.status < 300, describeExchange(exchange));
  const answer = parsed(priceCreateResponseSchema, exchange, "price create response");
  ensure(
    answer.statusCode === 0,
    `${requestLine(exchange)} answered statusCode ${answer.statusCode} (${answer.statusMessage}): ${JSON.stringify(answer.errors)}`,
  );
  ensure(answer.id !== null && answer.data !== null, `${requestLine(exchange)} answered statusCode 0 without id or data`);
  const { data } = answer;
  for (const field of ["sku", "type", "value", "currency", "normalizer"] as const) {
    ensure(
      data[field] === body[field],
      `${requestLine(exchange)} answered data.${field} ${JSON.stringify(data[field])}; sent ${JSON.stringify(body[field])}`,
    );
  }
  return { id: answer.id, exchange };
}

export const skuChecks: readonly Check[] = [
  {
    name: "skus.create",
    run: async (kit) => {
      requireWrites(kit);
      const code = conformanceSkuCode();
      const exchange = await createSku(kit, conformanceSku(code));
      skipOnForbidden(exchange, ENDPOINTS.createSku.scopes, skuImportResponseSchema, -6);
      const answer = parsed(skuImportResponseSchema, exchange, "SKU import response");
      ensure(
        answer.statusCode === 0,
        `${requestLine(exchange)} answered ${exchange.status} statusCode ${answer.statusCode} (${answer.statusMessage}): ${JSON.stringify(answer.errors)}`,
      );
      // Endpoint 4: "Successful creation answers HTTP 201; an HTTP 200 means … the product was not updated."
      ensure(exchange.status === 201, `${requestLine(exchange)} answered ${exchange.status} for a new SKU; the spec gives 201`);
      ensure(
        objectIdSchema.safeParse(answer.id).success,
        `${requestLine(exchange)} answered id ${JSON.stringify(answer.id)}, not an ObjectId`,
      );
      ensure(answer.sku === code, `${requestLine(exchange)} answered sku ${JSON.stringify(answer.sku)}; sent ${code}`);
      ensure(answer.data?.code === code, `${requestLine(exchange)} answered data without the SKU sent`);
      kit.state.sku = { code, id: answer.id as string };
      return `created ${code}: 201, statusCode 0, id ${answer.id}`;
    },
  },
  {
    name: "skus.create.invalid",
    run: async (kit) => {
      requireWrites(kit);
      // "Language pt_BR is mandatory" in the title: the import must be refused with its reasons.
      const body = { ...conformanceSku(conformanceSkuCode()), title: { en_US: "Conformance kit test product" } };
      const exchange = await createSku(kit, body);
      skipOnForbidden(exchange, ENDPOINTS.createSku.scopes, skuImportResponseSchema, -6);
      const answer = parsed(skuImportResponseSchema, exchange, "SKU import response");
      ensure(
        answer.statusCode === -4,
        `${requestLine(exchange)} with a title without pt_BR answered ${exchange.status} statusCode ${answer.statusCode}; expected -4`,
      );
      ensure(
        exchange.status !== 201 && exchange.status !== 200,
        `${requestLine(exchange)} answered statusCode -4 with HTTP ${exchange.status}`,
      );
      ensure(
        answer.errors.length > 0,
        `${requestLine(exchange)} answered statusCode -4 with no errors; the spec gives the reasons in errors`,
      );
      return `a title without pt_BR: ${exchange.status}, statusCode -4, errors on ${answer.errors.map((error) => error.field).join(", ")}`;
    },
  },
];

export const priceWriteChecks: readonly Check[] = [
  {
    name: "prices.create",
    run: async (kit) => {
      const sku = requireSku(kit);
      const body = conformancePrice(sku.code);
      const { id, exchange } = await priceAccepted(kit, body);
      kit.state.price = { id, value: body.value };
      return `answered ${exchange.status}, statusCode 0, price ${id} as sent`;
    },
  },
  {
    name: "prices.create.read-back",
    run: async (kit) => {
      const sku = requireSku(kit);
      if (!kit.state.price) skip("blocked: prices.create created no price");
      const { id, value } = kit.state.price;
      const exchange = await kit.api({ path: priceUrl(id) });
      ensure(exchange.status === 200, describeExchange(exchange));
      const price = parsed(priceReadSchema, exchange, "price");
      ensure(
        price.id === id && price.value === value && price.sku === sku.code,
        `${requestLine(exchange)} answered ${price.sku} ${price.value}; created ${sku.code} ${value}`,
      );
      const listed = readPage(await kit.api({ path: ENDPOINTS.listPrices.path, query: [["sku", sku.code]] }));
      ensure(
        listed.results.some((record) => record.id === id),
        `${requestLine(listed.exchange)} does not list price ${id}`,
      );
      return `GET ${ENDPOINTS.getPrice.path}/{id} and ?sku=${sku.code} answer the new price`;
    },
  },
  {
    name: "prices.create.currency",
    run: async (kit) => {
      const sku = requireSku(kit);
      // Money's currency is an ISO-4217 code (General conventions); XYZ is none.
      const exchange = await createPrice(kit, conformancePrice(sku.code, { currency: "XYZ" }));
      skipOnForbidden(exchange, ENDPOINTS.createPrice.scopes, priceCreateResponseSchema);
      const answer = parsed(priceCreateResponseSchema, exchange, "price create response");
      ensure(
        answer.statusCode !== 0,
        `${requestLine(exchange)} with currency XYZ answered ${exchange.status} statusCode 0: XYZ is no ISO-4217 code`,
      );
      return `currency XYZ refused: ${exchange.status}, statusCode ${answer.statusCode}`;
    },
  },
  {
    name: "prices.create.update",
    run: async (kit) => {
      const sku = requireSku(kit);
      if (!kit.state.price) skip("blocked: prices.create created no price");
      // "A price is not edited: creating a new price for the same SKU updates it."
      const body = conformancePrice(sku.code, { value: kit.state.price.value - 10_000 });
      const { id } = await priceAccepted(kit, body);
      const read = await kit.api({ path: priceUrl(id) });
      ensure(read.status === 200, describeExchange(read));
      ensure(
        parsed(priceReadSchema, read, "price").value === body.value,
        `${requestLine(read)} does not answer the new value ${body.value}`,
      );
      const listed = readPage(
        await kit.api({
          path: ENDPOINTS.listPrices.path,
          query: [
            ["sku", sku.code],
            ["type", body.type],
          ],
        }),
      );
      ensure(
        listed.results.some((record) => record.value === body.value),
        `${requestLine(listed.exchange)} does not list the new value ${body.value}`,
      );
      const kept = id === kit.state.price.id ? "the same price id" : `a new price id ${id}`;
      kit.state.price = { id, value: body.value };
      return `a second ${body.type} price for ${sku.code} is read back with the new value (${kept})`;
    },
  },
];
