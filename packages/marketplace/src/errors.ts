// The spec gives error bodies only for the token endpoint and the SKU import: the rest goes by status.
import type { z } from "zod";
import { formatFieldPath } from "./schemas/field-path";

export type MarketplaceErrorKind =
  | "unauthorized" // 401: token invalid, revoked or expired → the seller must reconnect
  | "forbidden" // 403: the token lacks a scope the endpoint needs
  | "not_found"
  | "bad_request"
  | "rate_limited" // 429 / statusCode -2
  | "unavailable" // 5xx, network failure, timeout
  | "invalid_response"; // a 2xx whose body is not what the spec says

export class MarketplaceError extends Error {
  readonly kind: MarketplaceErrorKind;
  readonly status: number | null;
  /** On a 403. */
  readonly requiredScopes: readonly string[];
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: MarketplaceErrorKind,
    message: string,
    options: { status?: number | null; requiredScopes?: readonly string[]; code?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "MarketplaceError";
    this.kind = kind;
    this.status = options.status ?? null;
    this.requiredScopes = options.requiredScopes ?? [];
    this.code = options.code;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export function kindForStatus(status: number): MarketplaceErrorKind {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "unavailable";
  return "bad_request";
}

export function describeZodFailure(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${formatFieldPath(issue.path) || "(body)"}: ${issue.message}`)
    .join("; ");
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
