// The scoped reads every run starts with. Their answers tell which scopes the token holds (the
// token response carries none: a client learns of a missing scope from a 403), and the list
// answers double as the first page of each list.
import { ENDPOINTS } from "@marketplace/api/client";
import { skip, type Kit } from "./kit";
import type { Exchange, HttpMethod } from "./http";

export type ScopedReadKey = "user" | "prices" | "orders";

export interface ScopedRead {
  key: ScopedReadKey;
  /** How the report names it. */
  label: string;
  method: HttpMethod;
  path: string;
  scopes: readonly string[];
  json?: unknown;
}

/** One read per scope the kit can probe without writing (spec: Endpoints 3, 7, 9). */
export const SCOPED_READS: readonly ScopedRead[] = [
  {
    key: "user",
    label: "basic user info",
    method: "POST",
    path: ENDPOINTS.basicUserInfo.path,
    scopes: ENDPOINTS.basicUserInfo.scopes,
    json: {},
  },
  { key: "prices", label: "price list", method: "GET", path: ENDPOINTS.listPrices.path, scopes: ENDPOINTS.listPrices.scopes },
  { key: "orders", label: "order list", method: "GET", path: ENDPOINTS.listOrders.path, scopes: ENDPOINTS.listOrders.scopes },
];

/** Every endpoint that must refuse a request without a valid token (spec: Endpoint 10 → 401). */
export const TOKEN_GUARDED: readonly Omit<ScopedRead, "key">[] = [
  ...SCOPED_READS,
  { label: "callback URL", method: "GET", path: ENDPOINTS.getWebhookUrl.path, scopes: [] },
];

export function scopedRead(key: ScopedReadKey): ScopedRead {
  const read = SCOPED_READS.find((entry) => entry.key === key);
  if (!read) throw new Error(`unknown scoped read ${key}`);
  return read;
}

/** The answer to the read with the run's token (no parameters), fetched once. */
export function access(kit: Kit, key: ScopedReadKey): Promise<Exchange> {
  const read = scopedRead(key);
  return kit.once(`access:${key}`, () => kit.api({ method: read.method, path: read.path, json: read.json }));
}

/** As `access`, skipping the calling check when the token lacks the scope or was refused. */
export async function requireAccess(kit: Kit, key: ScopedReadKey): Promise<Exchange> {
  const read = scopedRead(key);
  const exchange = await access(kit, key);
  if (exchange.status === 403) skip(`the token lacks ${read.scopes.join(" and ")}: the ${read.label} answered 403`);
  if (exchange.status === 401) skip("blocked: the token was refused (401), see auth.token-accepted");
  return exchange;
}
