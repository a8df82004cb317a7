// The sandbox's state on disk (SANDBOX_STATE_FILE), so that a restart keeps agreeing with the
// dashboard that mirrors it. What is saved, rebuilt or lost: sandbox/README.md, "Saved state".
import { randomInt, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { currencySchema, objectIdSchema, timestampSchema } from "@marketplace/api/schemas/common";
import { formatFieldPath } from "@marketplace/api/schemas/field-path";
import { orderSchema } from "@marketplace/api/schemas/order";
import { priceHistoryItemSchema, priceTypeSchema } from "@marketplace/api/schemas/price";
import { skuCreateSchema } from "@marketplace/api/schemas/sku";
import type { SandboxConfig } from "./config";
import type { SandboxContext } from "./context";
import { createOrderPools, seedApps, seedBaseTime, seedStore, seedUsers, type OrderPools } from "./seed";
import { seedExtraSellers } from "./seed/apps-and-users";
import { canonicalJson, SandboxStore, subscriptionKey } from "./store";

/** A new epoch: the sandbox seeded from scratch (sandbox/context.ts). */
export function newEpoch(): string {
  return randomUUID();
}

/** The settings a seeded store follows from: a state saved under others is not restored. */
const seedSettingsSchema = z.object({
  seed: z.number().int(),
  seedOrders: z.number().int().min(0),
  seedSellers: z.number().int().min(0),
  seedSellerOrders: z.number().int().min(0),
  publicUrl: z.string(),
  /** SANDBOX_SEED_BASE, null when unset. Absent from files saved before it existed: read as null. */
  seedBase: z.string().nullable().optional(),
});
type SeedSettings = z.infer<typeof seedSettingsSchema>;

/** Environment variable of each seed setting, for the message that says which one changed. */
const SEED_SETTING_VARIABLES: Record<keyof SeedSettings, string> = {
  seed: "SANDBOX_SEED",
  seedOrders: "SANDBOX_SEED_ORDERS",
  seedSellers: "SANDBOX_SEED_SELLERS",
  seedSellerOrders: "SANDBOX_SEED_SELLER_ORDERS",
  publicUrl: "SANDBOX_PUBLIC_URL",
  seedBase: "SANDBOX_SEED_BASE",
};

export function seedSettings(config: SandboxConfig): SeedSettings {
  const { seed, seedOrders, seedSellers, seedSellerOrders, publicUrl } = config;
  return {
    seed,
    seedOrders,
    seedSellers,
    seedSellerOrders,
    publicUrl,
    seedBase: config.seedBase === undefined ? null : iso(config.seedBase),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

const STATE_VERSION = 1;

const savedStateSchema = z.object({
  version: z.literal(STATE_VERSION),
  savedAt: timestampSchema,
  epoch: z.string().min(1),
  /** The environment's seed settings when the store was seeded. */
  seededWith: seedSettingsSchema,
  /**
   * The instant the seeded orders run up to (the clock at the first start, or SANDBOX_SEED_BASE):
   * kept so that orders created after a restart draw on the same catalogue records. Absent from
   * files saved before the seed followed the clock, whose orders are a year before 2026-11-01.
   */
  seedBaseTime: timestampSchema.optional(),
  /** Orders the last reset seeded for seller@example.com (a reset may name its own number). */
  seedOrders: z.number().int().min(0),
  clockOffsetMs: z.number().finite(),
  /** Null for "never swept" (-Infinity has no JSON form). */
  lastCredentialSweepAt: z.number().finite().nullable(),
  codes: z.array(
    z.object({
      code: z.string().min(1),
      clientId: z.string(),
      userId: z.string(),
      scopes: z.array(z.string()),
      redirectUri: z.string(),
      issuedAt: z.number(),
      used: z.boolean(),
      accessToken: z.string().nullable(),
    }),
  ),
  /** In issue order: the last active one of a user signs their notifications. */
  tokens: z.array(
    z.object({
      token: z.string().min(1),
      clientId: z.string(),
      userId: z.string(),
      scopes: z.array(z.string()),
      issuedAt: z.number(),
      expiresAt: z.number().nullable(),
      revoked: z.boolean(),
    }),
  ),
  webhookSubscriptions: z.array(z.object({ clientId: z.string(), userId: z.string(), url: z.string(), updatedAt: timestampSchema })),
  skus: z.array(z.object({ id: objectIdSchema, userId: z.string(), code: z.string(), data: skuCreateSchema, createdAt: timestampSchema })),
  /** Each seller's prices in list order. */
  prices: z.array(
    z.object({
      id: objectIdSchema,
      userId: z.string(),
      sku: z.string(),
      type: priceTypeSchema,
      value: z.number().int(),
      currency: currencySchema,
      normalizer: z.number().int().positive(),
      extras: z.record(z.string(), z.unknown()),
      created_at: timestampSchema,
      history: z.array(priceHistoryItemSchema),
    }),
  ),
  /** Each seller's orders by created_at, as the store keeps them. */
  orders: z.array(z.object({ userId: z.string(), orders: z.array(orderSchema) })),
});
export type SavedState = z.infer<typeof savedStateSchema>;

/** What a request can change, as it stands now. */
export function snapshotSandbox(ctx: SandboxContext, seededWith: SeedSettings): SavedState {
  const { store } = ctx;
  return {
    version: STATE_VERSION,
    savedAt: new Date().toISOString(),
    epoch: ctx.epoch,
    seededWith,
    seedBaseTime: iso(ctx.seedBaseTime),
    seedOrders: ctx.config.seedOrders,
    clockOffsetMs: ctx.clock.offsetMilliseconds,
    lastCredentialSweepAt: Number.isFinite(store.lastCredentialSweepAt) ? store.lastCredentialSweepAt : null,
    codes: [...store.codes.values()],
    tokens: [...store.tokens.values()],
    webhookSubscriptions: [...store.webhookSubscriptions.values()],
    skus: [...store.skusByUser.values()].flat().map(({ id, userId, code, data, createdAt }) => ({ id, userId, code, data, createdAt })),
    prices: [...store.pricesByUser.values()].flatMap((prices) => prices.items),
    orders: [...store.ordersByUser]
      .filter(([, orders]) => orders.items.length > 0)
      .map(([userId, orders]) => ({ userId, orders: orders.items })),
  };
}

class UnusableStateError extends Error {}

/** A store holding `state`, with the apps and users seeded from `config`. */
function restoreStore(state: SavedState, config: SandboxConfig): SandboxStore {
  const store = new SandboxStore();
  seedApps(store, config);
  seedUsers(store);
  seedExtraSellers(store, config.seedSellers);
  const seller = (userId: string, what: string) => {
    if (!store.usersById.has(userId)) throw new UnusableStateError(`${what} belongs to user ${userId}, whom the seed does not make`);
    return userId;
  };
  for (const code of state.codes) store.codes.set(code.code, { ...code, userId: seller(code.userId, "an authorization code") });
  for (const token of state.tokens) store.tokens.set(token.token, { ...token, userId: seller(token.userId, "an access token") });
  for (const subscription of state.webhookSubscriptions) {
    // Keyed as SANDBOX_CALLBACK_SCOPE says now: under `application`, the last saved URL of an app wins.
    const key = subscriptionKey(
      subscription.clientId,
      config.callbackScope === "application" ? null : seller(subscription.userId, "a callback URL"),
    );
    store.webhookSubscriptions.set(key, subscription);
  }
  for (const sku of state.skus)
    store.addSku({ ...sku, userId: seller(sku.userId, `SKU ${sku.code}`), fingerprint: canonicalJson(sku.data) });
  for (const price of state.prices) {
    store.sellerPrices(seller(price.userId, `price ${price.id}`)).items.push(price);
    store.priceById.set(price.id, price);
  }
  for (const { userId, orders } of state.orders) {
    seller(userId, "an order");
    for (const order of orders) store.addOrder(userId, order);
  }
  store.lastCredentialSweepAt = state.lastCredentialSweepAt ?? Number.NEGATIVE_INFINITY;
  return store;
}

type ReadResult =
  { kind: "missing" } | { kind: "unusable"; reason: string } | { kind: "other-seed"; changes: string } | { kind: "ok"; state: SavedState };

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readStateFile(file: string, config: SandboxConfig): ReadResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "unusable", reason: `it cannot be read (${describeError(error)})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: "unusable", reason: `it is not JSON (${describeError(error)})` };
  }
  const parsed = savedStateSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${formatFieldPath(issue.path) || "(the whole file)"}: ${issue.message}`);
    const more = parsed.error.issues.length > 3 ? `; and ${parsed.error.issues.length - 3} more` : "";
    return { kind: "unusable", reason: `it is not a sandbox state of version ${STATE_VERSION} (${issues.join("; ")}${more})` };
  }
  if (parsed.data.seedBaseTime === undefined) {
    // Saved before the demo shops followed the sandbox clock: their orders stop at 2026-11-01.
    return { kind: "other-seed", changes: "seeded orders now run up to the first start, not to 2026-11-01" };
  }
  const now = seedSettings(config);
  const changed = (Object.keys(now) as (keyof SeedSettings)[]).filter((key) => (parsed.data.seededWith[key] ?? null) !== now[key]);
  if (changed.length > 0) {
    return {
      kind: "other-seed",
      changes: changed
        .map((key) => `${SEED_SETTING_VARIABLES[key]} ${String(parsed.data.seededWith[key])} → ${String(now[key])}`)
        .join(", "),
    };
  }
  return { kind: "ok", state: parsed.data };
}

/** Moves a file that is not restored out of the way, keeping it; answers where it went (null when it could not be moved). */
function setAside(file: string, label: string): string | null {
  const aside = `${file}.${label}-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  try {
    renameSync(file, aside);
    return aside;
  } catch {
    return null;
  }
}

/** How a sandbox begins: its store, pools, epoch and clock, seeded or restored from SANDBOX_STATE_FILE. */
export interface SandboxBeginning {
  store: SandboxStore;
  pools: OrderPools;
  epoch: string;
  /** The instant the seeded orders run up to (seed/time.ts). */
  seedBaseTime: number;
  clockOffsetMs: number;
  /** Orders seeded for seller@example.com by the last seeding (a reset may have named its own number). */
  seedOrders: number;
  /** Seed of the generator behind the orders the control API creates. */
  runtimeSeed: number;
  restored: boolean;
}

/** `now`: the sandbox clock, which a fresh seed runs up to unless SANDBOX_SEED_BASE pins it. */
function fromSeed(config: SandboxConfig, now: number): SandboxBeginning {
  const store = new SandboxStore();
  const base = seedBaseTime(config.seedBase, now);
  const pools = seedStore(store, config, base);
  return {
    store,
    pools,
    epoch: newEpoch(),
    seedBaseTime: base,
    clockOffsetMs: 0,
    seedOrders: config.seedOrders,
    runtimeSeed: config.seed + 99,
    restored: false,
  };
}

/**
 * The saved state when SANDBOX_STATE_FILE holds one, else the seed, up to `now` (the sandbox
 * clock). A file that cannot be restored, or was saved under other seed settings, is reported and
 * renamed aside, never deleted.
 */
export function beginSandbox(config: SandboxConfig, now: number): SandboxBeginning {
  const file = config.stateFile;
  if (file === undefined) return fromSeed(config, now);
  const read = readStateFile(file, config);
  if (read.kind === "missing") return fromSeed(config, now);
  if (read.kind === "other-seed") {
    const aside = setAside(file, "other-seed");
    console.log(
      `sandbox: ${file} was saved under other seed settings (${read.changes}): starting from the seed${aside ? `; the old state is kept as ${aside}` : ""}.`,
    );
    return fromSeed(config, now);
  }
  let reason: string;
  if (read.kind === "ok") {
    try {
      const store = restoreStore(read.state, config);
      // The saved base, not now: the restored orders and the ones created from here on share one catalogue.
      const base = Date.parse(read.state.seedBaseTime ?? "");
      return {
        store,
        pools: createOrderPools(config.seed, config.publicUrl, base),
        epoch: read.state.epoch,
        seedBaseTime: base,
        clockOffsetMs: read.state.clockOffsetMs,
        seedOrders: read.state.seedOrders,
        // Drawn afresh: the seeded stream would repeat the orders created before the restart.
        runtimeSeed: randomInt(0x1_0000_0000),
        restored: true,
      };
    } catch (error) {
      if (!(error instanceof UnusableStateError)) throw error;
      reason = error.message;
    }
  } else {
    reason = read.reason;
  }
  const aside = setAside(file, "bad");
  console.error(
    `sandbox: could not restore the saved state from ${file}: ${reason}. Starting from the seed; ` +
      (aside ? `the file is kept as ${aside}.` : "the file could not be moved aside and will be overwritten."),
  );
  return fromSeed(config, now);
}

/** Writes the state to `file` atomically: a reader, or a restart after a crash, sees the old file or the new one, whole. */
export function writeStateFile(file: string, state: SavedState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    // Tokens and codes: readable by this user only, like .data/dev-secrets.json.
    writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Saves the state after changes, at most once per `intervalMs` (the first change after a quiet
 * spell is saved on the next tick), and at once when asked (start, reset, shutdown). Writes are
 * synchronous: two saves never interleave, so an older snapshot can never land after a newer one.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;
  private lastSaveAt = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** The last save's error, reported once until a save succeeds again. */
  private failure: string | null = null;

  constructor(
    readonly file: string,
    private readonly snapshot: () => SavedState,
    private readonly intervalMs = 1000,
  ) {}

  changed(): void {
    this.dirty = true;
    if (this.timer !== null || this.closed) return;
    const wait = Math.max(0, this.lastSaveAt + this.intervalMs - performance.now());
    this.timer = setTimeout(() => this.saveNow(), wait);
    this.timer.unref();
  }

  saveNow(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    this.lastSaveAt = performance.now();
    try {
      writeStateFile(this.file, this.snapshot());
      if (this.failure !== null) console.log(`sandbox: the state is saved to ${this.file} again.`);
      this.failure = null;
    } catch (error) {
      // Kept dirty: the next change tries again (and shutdown does).
      this.dirty = true;
      const message = describeError(error);
      if (message !== this.failure) console.error(`sandbox: could not save the state to ${this.file}: ${message}`);
      this.failure = message;
    }
  }

  /** Shutdown: saves what has not been saved, then stops saving. */
  close(): void {
    if (this.dirty) this.saveNow();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.closed = true;
  }
}
