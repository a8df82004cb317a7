// zod validators for routes, answering the sandbox's error shape on failure.
import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { formatIssuePath } from "@marketplace/api/schemas/field-path";
import { SandboxHttpError, errorResponse } from "./errors";

function toValidationError(where: string, error: { issues: readonly z.core.$ZodIssue[] }): SandboxHttpError {
  const details = error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: issue.message }));
  const summary = details.map((detail) => `${detail.field}: ${detail.message}`).join("; ");
  return new SandboxHttpError(400, "invalid_request", `Invalid ${where}: ${summary}`, { details });
}

/** application/json or application/<anything>+json, whatever its parameters (charset). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

export const NOT_JSON_MESSAGE = "The request body must be JSON, sent with Content-Type: application/json";

/**
 * Whether a route that reads JSON may take this request's body. Hono's JSON validator reads any
 * other Content-Type as `{}`, so a cross-site form (text/plain needs no CORS preflight) would reach
 * a route whose fields are all optional. A declared Content-Type must therefore be JSON whatever
 * the body's length (an empty text/plain form post still declares one); with none declared there
 * must be no body at all (a script's Blob body sends none). Judged by the headers alone, so a
 * refused body is never read (sandbox/body-limit.ts says why that matters).
 */
export function hasJsonOrNoBody(c: Context): boolean {
  const declared = c.req.header("Content-Type");
  if (declared !== undefined) return JSON_MEDIA_TYPE.test(declared.split(";")[0]?.trim() ?? "");
  const length = c.req.header("Content-Length");
  return c.req.header("Transfer-Encoding") === undefined && (length === undefined || Number(length) === 0);
}

/**
 * The refusal of a body that is not JSON: 415 on the control API; 400 `invalid_request` on the
 * spec's routes, whose error tables have no 415.
 */
function notJsonError(status: 400 | 415): SandboxHttpError {
  return status === 415
    ? new SandboxHttpError(415, "unsupported_media_type", NOT_JSON_MESSAGE)
    : new SandboxHttpError(400, "invalid_request", NOT_JSON_MESSAGE, {
        details: [{ field: "body", message: "must be JSON (Content-Type: application/json)" }],
      });
}

/** For a route whose JSON body is optional and unread (basic_user_info): refuses any other body. */
export function jsonOrNoBody(notJsonStatus: 400 | 415): MiddlewareHandler {
  return async (c, next) => {
    if (!hasJsonOrNoBody(c)) return errorResponse(c, notJsonError(notJsonStatus));
    await next();
  };
}

/** The route's JSON body, checked by `schema`; a body that is not JSON is refused first (`hasJsonOrNoBody`). */
export function jsonBody<T extends z.ZodType>(schema: T, notJsonStatus: 400 | 415 = 400) {
  const validate = zValidator("json", schema, (result, c) => {
    if (!result.success) return errorResponse(c, toValidationError("JSON body", result.error));
  });
  const checked: typeof validate = async (c, next) => {
    if (!hasJsonOrNoBody(c)) return errorResponse(c, notJsonError(notJsonStatus));
    return validate(c, next);
  };
  return checked;
}

export function pathParams<T extends z.ZodType>(schema: T) {
  return zValidator("param", schema, (result, c) => {
    if (!result.success) return errorResponse(c, toValidationError("path parameter", result.error));
  });
}
