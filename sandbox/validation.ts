// zod validators for routes, answering the sandbox's error shape on failure.
import { zValidator } from "@hono/zod-validator";
import type { z } from "zod";
import { formatIssuePath } from "@/lib/marketplace/schemas/field-path";
import { SandboxHttpError, errorResponse } from "./errors";

function toValidationError(where: string, error: { issues: readonly z.core.$ZodIssue[] }): SandboxHttpError {
  const details = error.issues.map((issue) => ({ field: formatIssuePath(issue.path), message: issue.message }));
  const summary = details.map((detail) => `${detail.field}: ${detail.message}`).join("; ");
  return new SandboxHttpError(400, "invalid_request", `Invalid ${where}: ${summary}`, { details });
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return zValidator("json", schema, (result, c) => {
    if (!result.success) return errorResponse(c, toValidationError("JSON body", result.error));
  });
}

export function pathParams<T extends z.ZodType>(schema: T) {
  return zValidator("param", schema, (result, c) => {
    if (!result.success) return errorResponse(c, toValidationError("path parameter", result.error));
  });
}
