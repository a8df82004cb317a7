// The sandbox's in-memory state. Everything a request can change lives here, so
// `POST /_sandbox/reset` is "throw the store away and seed a new one".
import type { AppType } from "@marketplace/api/schemas/scopes";
import type { Order } from "@marketplace/api/schemas/order";
import type { PriceHistoryItem, PriceType } from "@marketplace/api/schemas/price";
import type { SkuCreate } from "@marketplace/api/schemas/sku";

export interface IntegratorApp {
  clientId: string;
  clientSecret: string;
  name: string;
  type: AppType;
  redirectUris: string[];
  /** False for the seeded `restricted-integrator`: it gets `unauthorized_client` from both OAuth endpoints. */
  mayUseAuthorizationCode: boolean;
}

export interface SandboxUser {
  id: string;
  email: string;
  password: string;
  name: string;
  /** Users without a PRO plan cannot authorize integrators (`access_denied`). */
  pro: boolean;
}

export interface AuthorizationCode {
  code: string;
  clientId: string;
  userId: string;
  scopes: string[];
  /** The redirect URI the code was issued for (the registered one when the request omitted it). */
  redirectUri: string;
  issuedAt: number;
  used: boolean;
  /** Token produced by the first exchange; revoked if the code is replayed (RFC 6749 §4.1.2). */
  accessToken: string | null;
}

export interface AccessToken {
  token: string;
  clientId: string;
  userId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number | null;
  revoked: boolean;
}

/**
 * With SANDBOX_CALLBACK_SCOPE=application `userId` is whoever set it last. The signing token is
 * picked when a notification is sent, not here (sandbox/notify.ts).
 */
export interface WebhookSubscription {
  clientId: string;
  userId: string;
  url: string;
  updatedAt: string;
}

export interface SkuRecord {
  id: string;
  userId: string;
  code: string;
  data: SkuCreate;
  /** Canonical JSON of `data`: re-sending an identical SKU is detected with it. */
  fingerprint: string;
  createdAt: string;
}

export interface PriceRecord {
  id: string;
  userId: string;
  sku: string;
  type: PriceType;
  value: number;
  currency: string;
  normalizer: number;
  extras: Record<string, unknown>;
  created_at: string;
  history: PriceHistoryItem[];
}

/**
 * A seller's orders in `created_at` ascending order (ties by id). `version` changes on every
 * insert or update so that cached sorted views of the list engine know they are stale.
 */
export interface SellerOrders {
  items: Order[];
  version: number;
}

export interface SellerPrices {
  items: PriceRecord[];
  version: number;
}

export class SandboxStore {
  readonly apps = new Map<string, IntegratorApp>();
  readonly usersByEmail = new Map<string, SandboxUser>();
  readonly usersById = new Map<string, SandboxUser>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly tokens = new Map<string, AccessToken>();
  readonly webhookSubscriptions = new Map<string, WebhookSubscription>();
  readonly skusByUser = new Map<string, SkuRecord[]>();
  readonly skuByFingerprint = new Map<string, SkuRecord>();
  readonly pricesByUser = new Map<string, SellerPrices>();
  readonly priceById = new Map<string, PriceRecord>();
  readonly ordersByUser = new Map<string, SellerOrders>();
  readonly orderById = new Map<string, { order: Order; userId: string }>();
  private readonly orderJsonCache = new WeakMap<Order, Buffer>();
  /** Sandbox time of the last sweepCredentials. */
  lastCredentialSweepAt = Number.NEGATIVE_INFINITY;

  /** Keyed by the exact e-mail: two users may differ only in letter case (the seeded case twin). */
  addUser(user: SandboxUser): void {
    this.usersByEmail.set(user.email, user);
    this.usersById.set(user.id, user);
  }

  /** The exact address first; otherwise any spelling of an address only one user has. */
  findUserByLogin(login: string): SandboxUser | undefined {
    const typed = login.trim();
    const exact = this.usersByEmail.get(typed);
    if (exact) return exact;
    const lower = typed.toLowerCase();
    let found: SandboxUser | undefined;
    for (const user of this.usersById.values()) {
      if (user.email.toLowerCase() !== lower) continue;
      if (found) return undefined;
      found = user;
    }
    return found;
  }

  /** The user's most recently issued token for the application that is neither revoked nor expired. */
  latestActiveToken(clientId: string, userId: string, now: number): AccessToken | undefined {
    // `tokens` keeps issue order, so the last match is the most recent (even within one millisecond).
    let latest: AccessToken | undefined;
    for (const token of this.tokens.values()) {
      if (token.clientId === clientId && token.userId === userId && isTokenActive(token, now)) latest = token;
    }
    return latest;
  }

  /**
   * Forgets expired authorization codes and expired or revoked tokens: nothing can use them any
   * more, and a long-running sandbox would otherwise keep every one. A used code is kept until it
   * expires, so that replaying it meanwhile still revokes its token (RFC 6749 §4.1.2).
   */
  sweepCredentials(now: number, codeLifetimeMs: number): void {
    this.lastCredentialSweepAt = now;
    for (const [key, code] of this.codes) if (now - code.issuedAt >= codeLifetimeMs) this.codes.delete(key);
    for (const [key, token] of this.tokens) if (!isTokenActive(token, now)) this.tokens.delete(key);
  }

  sellerOrders(userId: string): SellerOrders {
    let orders = this.ordersByUser.get(userId);
    if (!orders) {
      orders = { items: [], version: 0 };
      this.ordersByUser.set(userId, orders);
    }
    return orders;
  }

  /** Inserts an order keeping created_at order (normally an append: new orders carry the clock's time). */
  addOrder(userId: string, order: Order): void {
    const orders = this.sellerOrders(userId);
    let index = orders.items.length;
    while (index > 0 && (orders.items[index - 1]?.created_at ?? "") > order.created_at) index--;
    orders.items.splice(index, 0, order);
    orders.version++;
    this.orderById.set(order.id, { order, userId });
  }

  /** Call after mutating an order in place: drops its cached JSON and stales the list caches. */
  orderChanged(userId: string, order: Order): void {
    this.orderJsonCache.delete(order);
    this.sellerOrders(userId).version++;
  }

  /**
   * Serialised orders, cached: a page of 50 orders is ~180 KB of JSON, and re-serialising it on
   * every list call would dominate the response time with 100,000 orders.
   */
  orderJson(order: Order): Buffer {
    let json = this.orderJsonCache.get(order);
    if (json === undefined) {
      json = Buffer.from(JSON.stringify(order), "utf8");
      this.orderJsonCache.set(order, json);
    }
    return json;
  }

  sellerPrices(userId: string): SellerPrices {
    let prices = this.pricesByUser.get(userId);
    if (!prices) {
      prices = { items: [], version: 0 };
      this.pricesByUser.set(userId, prices);
    }
    return prices;
  }

  addSku(record: SkuRecord): void {
    const list = this.skusByUser.get(record.userId) ?? [];
    list.push(record);
    this.skusByUser.set(record.userId, list);
    this.skuByFingerprint.set(`${record.userId}:${record.fingerprint}`, record);
  }

  hasSkuCode(userId: string, code: string): boolean {
    return (this.skusByUser.get(userId) ?? []).some((sku) => sku.code === code);
  }
}

/** Key of a callback URL: per (application, user), or per application when `userId` is null. */
export function subscriptionKey(clientId: string, userId: string | null): string {
  return userId === null ? clientId : `${clientId}\u0000${userId}`;
}

export function isTokenActive(token: AccessToken, now: number): boolean {
  return !token.revoked && (token.expiresAt === null || now < token.expiresAt);
}

/** JSON with object keys sorted, so that two equal SKUs give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner && typeof inner === "object" && !Array.isArray(inner)) {
      return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return inner;
  });
}
