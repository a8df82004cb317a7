// The sandbox's one JSON error shape, wherever the spec shows no error body. The spec fixes the
// exceptions: the token endpoint's `{error}` (RFC 6749 §5.2) and SKU create's import response.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type ErrorCode =
  | "invalid_token" // 401: Authorization header missing, token unknown, revoked or expired
  | "insufficient_scope" // 403: the token lacks a scope the endpoint requires
  | "cross_site_request" // 403: a browser request to the control API from another site
  | "invalid_request" // 400: body or path parameter fails validation (details name each field)
  | "invalid_query" // 400: list query parameter unknown or malformed (parameter names it)
  | "not_found" // 404: no such resource for this seller, or no such route
  | "conflict" // 409: invalid state transition (control API)
  | "payload_too_large" // 413: request body above its limit (1 MiB for JSON)
  | "unsupported_media_type" // 415: a control route's body is not JSON
  | "rate_limited" // 429: fault `rateLimitPerMinute` exceeded; see Retry-After
  | "server_error" // 500: fault `errorRate`, or an unexpected failure
  | "temporarily_unavailable"; // 503: fault `maintenance`

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; parameter?: string };
}

/**
 * A failure the sandbox answers with: routes throw or return it, `errorResponse` turns it into its
 * status and the body above. (The dashboard's `DashboardApiError`, lib/api-client.ts, is another
 * thing: what the browser gets when one of the dashboard's own endpoints fails.)
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: ErrorDetail[]; parameter?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = "SandboxHttpError";
  }

  toBody(): ErrorBody {
    const { details, parameter } = this.extra;
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(details ? { details } : {}),
        ...(parameter ? { parameter } : {}),
      },
    };
  }
}

export function errorResponse(c: Context, error: SandboxHttpError): Response {
  if (error.status === 401) c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
  if (error.extra.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.extra.retryAfterSeconds));
  return c.json(error.toBody(), error.status);
}

export const notFound = (what: string) => new SandboxHttpError(404, "not_found", `${what} not found`);
