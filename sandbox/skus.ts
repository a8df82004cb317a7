// POST /v1.0/marketplace/portfolios/skus (spec: Endpoint 4; SKU import status codes). The body is
// parsed by hand, not with zValidator: an empty body (-3) and a malformed one (-4) need different codes.
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { issuesToImportErrors, SKU_STATUS, skuCreateSchema } from "@marketplace/api/schemas/sku";
import type { ImportError, SkuImportResponse } from "@marketplace/api/schemas/sku";
import { apiGuard, type FailureRenderer } from "./auth";
import { bodyTooLargeMessage, JSON_BODY_LIMIT_BYTES, type BodyLimitRule } from "./body-limit";
import type { SandboxContext, SandboxEnv } from "./context";
import { randomBytes } from "node:crypto";
import { canonicalJson } from "./store";
import { hasJsonOrNoBody, NOT_JSON_MESSAGE } from "./validation";
import { notifySeller } from "./notify";

export const SKUS_PATH = "/v1.0/marketplace/portfolios/skus";

type SkuStatus = (typeof SKU_STATUS)[keyof typeof SKU_STATUS];

function importToken(): string {
  return randomBytes(12).toString("hex");
}

function failure(status: SkuStatus, errors: ImportError[], sku: string | null = null): SkuImportResponse {
  return { token: importToken(), id: null, sku, statusCode: status.statusCode, statusMessage: status.statusMessage, errors, data: null };
}

/** Guard failures in the import-response form: 403 → -6, 429 → -2, 500 → -1, 503 → -5; 401 keeps the common shape. */
const renderSkuFailure: FailureRenderer = (c, error) => {
  if (error.status === 401) {
    c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
    return c.json(error.toBody(), 401);
  }
  const status =
    error.status === 403
      ? SKU_STATUS.forbidden
      : error.status === 429
        ? SKU_STATUS.blocked
        : error.status === 503
          ? SKU_STATUS.importDown
          : SKU_STATUS.unexpected;
  if (error.extra.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.extra.retryAfterSeconds));
  return c.json(failure(status, [{ field: "authorization", message: error.message }]), error.status);
};

/** A body above 1 MiB: HTTP 413 with statusCode -4 (the body is invalid), before anything is read. */
export const skuBodyLimit: BodyLimitRule = {
  path: SKUS_PATH,
  maxBytes: JSON_BODY_LIMIT_BYTES,
  tooLarge: (c, maxBytes) => c.json(failure(SKU_STATUS.invalid, [{ field: "body", message: bodyTooLargeMessage(maxBytes) }]), 413),
};

export function skuRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post(SKUS_PATH, apiGuard(ctx, ["portfolio:write", "portfolio:read"], renderSkuFailure), async (c) => {
    const { user } = c.get("auth");
    const answer = (status: ContentfulStatusCode, body: SkuImportResponse) => c.json(body, status);

    if (ctx.faults.current.importDown) return answer(503, failure(SKU_STATUS.importDown, []));
    // "The path accepts no extra parameters."
    const extra = [...new URL(c.req.url).searchParams.keys()];
    if (extra.length > 0) {
      return answer(
        400,
        failure(
          SKU_STATUS.invalid,
          extra.map((name) => ({ field: `query.${name}`, message: "this path accepts no parameters" })),
        ),
      );
    }
    // Checked before the empty-body case: a text/plain form post declares its type even when empty.
    if (!hasJsonOrNoBody(c)) return answer(400, failure(SKU_STATUS.invalid, [{ field: "body", message: NOT_JSON_MESSAGE }]));
    const text = (await c.req.text()).trim();
    if (text === "") return answer(400, failure(SKU_STATUS.empty, []));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return answer(400, failure(SKU_STATUS.invalid, [{ field: "body", message: "the body is not valid JSON" }]));
    }
    if (json === null || (Array.isArray(json) && json.length === 0) || (typeof json === "object" && Object.keys(json).length === 0)) {
      return answer(400, failure(SKU_STATUS.empty, []));
    }
    if (typeof json !== "object" || Array.isArray(json)) {
      return answer(400, failure(SKU_STATUS.invalid, [{ field: "body", message: "the body must be one SKU object" }]));
    }
    const parsed = skuCreateSchema.safeParse(json);
    const code = typeof (json as { code?: unknown }).code === "string" ? (json as { code: string }).code : null;
    if (!parsed.success) return answer(400, failure(SKU_STATUS.invalid, issuesToImportErrors(parsed.error), code));

    const rejections = ctx.faults.current.rejectSkus;
    if (rejections) return answer(400, failure(SKU_STATUS.invalid, rejections, code));

    const data = parsed.data;
    const fingerprint = canonicalJson(data);
    const existing = ctx.store.skuByFingerprint.get(`${user.id}:${fingerprint}`);
    const ok = SKU_STATUS.imported;
    if (existing) {
      return answer(200, {
        token: importToken(),
        id: existing.id,
        sku: existing.code,
        statusCode: ok.statusCode,
        statusMessage: ok.statusMessage,
        errors: [],
        data: existing.data,
      });
    }
    // SKUs are immutable: a changed SKU with a known code is a new SKU record (spec: SKU and price immutability).
    const now = ctx.clock.now();
    const record = { id: ctx.newId(now), userId: user.id, code: data.code, data, fingerprint, createdAt: new Date(now).toISOString() };
    ctx.store.addSku(record);
    notifySeller(ctx, user.id, { domain: "portfolio.sku", status: "created", id: record.id, code: record.code });
    return answer(201, {
      token: importToken(),
      id: record.id,
      sku: record.code,
      statusCode: ok.statusCode,
      statusMessage: ok.statusMessage,
      errors: [],
      data,
    });
  });
  return routes;
}
