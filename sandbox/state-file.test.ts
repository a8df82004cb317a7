import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { samplePrice, sampleSku } from "@marketplace/api/schemas/fixtures";
import type { Order } from "@marketplace/api/schemas/order";
import { createSandbox } from "./app";
import type { SandboxConfig } from "./config";
import { SEED_USER_IDS } from "./seed";
import { StateSaver, type SavedState } from "./state-file";
import { obtainAccessToken, startTestSandbox, type TestSandbox } from "./testing";

let dir: string;
let stateFile: string;
const running: TestSandbox[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sandbox-state-"));
  stateFile = path.join(dir, "state.json");
});

afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

async function start(config: Partial<SandboxConfig> = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox({ config: { stateFile, seedOrders: 8, ...config } });
  running.push(sandbox);
  return sandbox;
}

async function stop(sandbox: TestSandbox): Promise<void> {
  running.splice(running.indexOf(sandbox), 1);
  await sandbox.close();
}

const savedState = () => JSON.parse(readFileSync(stateFile, "utf8")) as SavedState;
const asideFiles = (label: string) => readdirSync(dir).filter((name) => name.startsWith(`state.json.${label}-`));

async function listOrders(sandbox: TestSandbox, token: string): Promise<Order[]> {
  const response = await sandbox.api("/v1.0/marketplace/orders?_limit=100&_sort=created_at:asc", { token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: Order[] }).results;
}

const control = (sandbox: TestSandbox, route: string, json: unknown = {}) => sandbox.api(`/_sandbox${route}`, { method: "POST", json });

async function epochOf(sandbox: TestSandbox): Promise<string> {
  return ((await (await sandbox.api("/_sandbox/health")).json()) as { epoch: string }).epoch;
}

describe("SANDBOX_STATE_FILE", () => {
  it("brings back the orders, SKUs, prices, tokens, callback URLs and clock after a restart", async () => {
    const first = await start();
    expect(first.handle.restored).toBe(false);
    const epoch = await epochOf(first);
    const token = await obtainAccessToken(first.url);
    expect((await first.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("KEEP-1") })).status).toBe(201);
    expect((await first.api("/v1.0/marketplace/portfolios/prices", { method: "POST", token, json: samplePrice("KEEP-1") })).status).toBe(
      201,
    );
    expect(
      (await first.api("/v1.0/marketplace/webhooks/url", { method: "POST", token, json: { url: "http://127.0.0.1:9/hook" } })).status,
    ).toBe(200);
    const created = (await (await control(first, "/orders", { seller: "seller@example.com", count: 3 })).json()) as { orders: Order[] };
    const moved = created.orders[0]!;
    expect((await control(first, `/orders/${moved.id}/status`, { status: "approved" })).status).toBe(200);
    await control(first, "/clock", { advanceSeconds: 3600 });
    const ordersBefore = await listOrders(first, token);
    const skusBefore = first.handle.store.skusByUser.get(SEED_USER_IDS.seller)!.map((sku) => sku.id);
    const pricesBefore = first.handle.store.sellerPrices(SEED_USER_IDS.seller).items.map((price) => [price.id, price.value]);
    await stop(first);

    const second = await start();
    expect(second.handle.restored).toBe(true);
    expect(await epochOf(second)).toBe(epoch);
    // The token issued before the restart still opens the API, and its orders are the same.
    expect(await listOrders(second, token)).toEqual(ordersBefore);
    expect(ordersBefore.find((order) => order.id === moved.id)?.status).toBe("approved");
    expect(second.handle.store.skusByUser.get(SEED_USER_IDS.seller)!.map((sku) => sku.id)).toEqual(skusBefore);
    expect(second.handle.store.sellerPrices(SEED_USER_IDS.seller).items.map((price) => [price.id, price.value])).toEqual(pricesBefore);
    expect((await (await second.api("/v1.0/marketplace/webhooks/url", { token })).json()) as unknown).toEqual({
      url: "http://127.0.0.1:9/hook",
    });
    // Sandbox time goes on from where it was, one hour ahead of the wall clock.
    expect(second.handle.clock.offsetSeconds).toBe(3600);
    // An identical SKU is still recognised as the one already imported (its fingerprint is rebuilt).
    const again = await second.api("/v1.0/marketplace/portfolios/skus", { method: "POST", token, json: sampleSku("KEEP-1") });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(skusBefore.at(-1));
    // A restored price is the record the API updates (one object in both of the store's indexes).
    const price = second.handle.store.sellerPrices(SEED_USER_IDS.seller).items.at(-1)!;
    expect(second.handle.store.priceById.get(price.id)).toBe(price);
  });

  it("saves after a change on its own, within about a second, without a restart", async () => {
    const sandbox = await start();
    await control(sandbox, "/orders", { seller: "seller2@example.com", count: 2 });
    await vi.waitFor(
      () => {
        const sellerTwo = savedState().orders.find((entry) => entry.userId === SEED_USER_IDS.seller2);
        expect(sellerTwo?.orders).toHaveLength(2 + 2);
      },
      { timeout: 3000, interval: 100 },
    );
  });

  it("starts from the seed when the file is not JSON, says so, and keeps the file aside", async () => {
    writeFileSync(stateFile, "{ not json");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const handle = createSandbox({ config: { stateFile, seedOrders: 4 }, startDelivery: false });
    expect(handle.restored).toBe(false);
    expect(handle.store.ordersByUser.get(SEED_USER_IDS.seller)?.items).toHaveLength(4);
    expect(errors).toHaveBeenCalledWith(
      expect.stringMatching(/could not restore the saved state from .*state\.json: it is not JSON .*kept as .*state\.json\.bad-/),
    );
    const [aside] = asideFiles("bad");
    expect(readFileSync(path.join(dir, aside!), "utf8")).toBe("{ not json");
    // The seed was saved in its place, with its own epoch.
    expect(savedState().epoch).toBe(handle.context.epoch);
  });

  it("starts from the seed when the file is JSON of another shape, naming what is wrong", async () => {
    const sandbox = await start();
    await stop(sandbox);
    const broken = savedState() as unknown as { tokens: unknown[]; orders: { orders: { status: string }[] }[] };
    broken.tokens = [
      { token: 42, clientId: "demo-integrator", userId: SEED_USER_IDS.seller, scopes: [], issuedAt: 0, expiresAt: null, revoked: false },
    ];
    broken.orders[0]!.orders[0]!.status = "lost";
    writeFileSync(stateFile, JSON.stringify(broken));
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const handle = createSandbox({ config: { stateFile, seedOrders: 8 }, startDelivery: false });
    expect(handle.restored).toBe(false);
    const message = String(errors.mock.calls[0]?.[0]);
    expect(message).toMatch(/not a sandbox state of version 1/);
    expect(message).toContain("tokens[0].token");
    expect(message).toContain("orders[0].orders[0].status");
    expect(asideFiles("bad")).toHaveLength(1);
  });

  it("starts from the seed when the seed settings changed, keeping the old state aside", async () => {
    const sandbox = await start();
    await stop(sandbox);
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    const handle = createSandbox({ config: { stateFile, seedOrders: 12 }, startDelivery: false });
    expect(handle.restored).toBe(false);
    expect(logs).toHaveBeenCalledWith(expect.stringMatching(/other seed settings \(SANDBOX_SEED_ORDERS 8 → 12\)/));
    expect(asideFiles("other-seed")).toHaveLength(1);
    expect(savedState().seededWith.seedOrders).toBe(12);
  });

  it("a reset changes the epoch and overwrites the file at once", async () => {
    const sandbox = await start();
    const epoch = await epochOf(sandbox);
    await control(sandbox, "/orders", { seller: "seller@example.com", count: 5 });
    sandbox.handle.stateSaver!.saveNow();
    expect(savedState().orders.find((entry) => entry.userId === SEED_USER_IDS.seller)?.orders).toHaveLength(8 + 5);

    const answer = (await (await control(sandbox, "/reset", { seedOrders: 3 })).json()) as { epoch: string };
    expect(answer.epoch).not.toBe(epoch);
    expect(await epochOf(sandbox)).toBe(answer.epoch);
    const saved = savedState();
    expect(saved.epoch).toBe(answer.epoch);
    expect(saved.orders.find((entry) => entry.userId === SEED_USER_IDS.seller)?.orders).toHaveLength(3);
    expect(saved.tokens).toEqual([]);

    // The reset's own number of orders comes back with the state; the epoch stays until the next reset.
    await stop(sandbox);
    const restarted = await start();
    expect(restarted.handle.restored).toBe(true);
    expect(await epochOf(restarted)).toBe(answer.epoch);
    expect(restarted.handle.context.config.seedOrders).toBe(3);
  });

  it("keeps the seed's base time: a restart days later brings back the same shop, not one seeded up to the new now", async () => {
    const first = await start({ seedOrders: 120 });
    const base = first.handle.context.seedBaseTime;
    const token = await obtainAccessToken(first.url);
    const before = await listOrders(first, token);
    expect(savedState().seedBaseTime).toBe(new Date(base).toISOString());
    await stop(first);

    // Two days later on the wall clock: the saved shop comes back as it was.
    vi.useFakeTimers({ now: Date.now() + 2 * 86_400_000, toFake: ["Date"] });
    try {
      const second = await start({ seedOrders: 120 });
      expect(second.handle.restored).toBe(true);
      expect(second.handle.context.seedBaseTime).toBe(base);
      expect(await listOrders(second, token)).toEqual(before);
      // Orders created now name the catalogue's items by the same ids as the seeded ones.
      const created = (await (await control(second, "/orders", { seller: "seller@example.com" })).json()) as { orders: Order[] };
      const seededItemIds = new Set(
        before.flatMap((order) => order.deliveries.flatMap((delivery) => delivery.items.map((item) => item.info.id))),
      );
      expect(created.orders[0]!.deliveries[0]!.items.every((item) => seededItemIds.has(item.info.id))).toBe(true);
      // A reset seeds up to the clock again.
      await control(second, "/reset");
      expect(second.handle.context.seedBaseTime).toBeGreaterThan(base + 86_400_000);
      expect(savedState().seedBaseTime).toBe(new Date(second.handle.context.seedBaseTime).toISOString());
    } finally {
      vi.useRealTimers();
    }
  });

  it("starts from the seed, keeping the old file aside, when SANDBOX_SEED_BASE changed or the file predates the base time", async () => {
    const pinned = await start({ seedBase: Date.parse("2026-11-01T12:00:00Z") });
    await stop(pinned);
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    const unpinned = createSandbox({ config: { stateFile, seedOrders: 8 }, startDelivery: false });
    expect(unpinned.restored).toBe(false);
    expect(logs).toHaveBeenCalledWith(expect.stringMatching(/other seed settings \(SANDBOX_SEED_BASE 2026-11-01T12:00:00.000Z → null\)/));
    unpinned.stateSaver!.saveNow();

    // A file saved before the seed followed the clock: its shop stops at 2026-11-01.
    const { seedBaseTime: _base, ...older } = savedState();
    writeFileSync(stateFile, JSON.stringify(older));
    const reseeded = createSandbox({ config: { stateFile, seedOrders: 8 }, startDelivery: false });
    expect(reseeded.restored).toBe(false);
    expect(logs).toHaveBeenLastCalledWith(expect.stringMatching(/seeded orders now run up to the first start/));
    expect(asideFiles("other-seed")).toHaveLength(2);
  });

  it("a sandbox without SANDBOX_STATE_FILE writes nothing, and gets a new epoch at each reset", () => {
    const handle = createSandbox({ config: { seedOrders: 0 }, startDelivery: false });
    const epoch = handle.context.epoch;
    handle.reset();
    expect(handle.context.epoch).not.toBe(epoch);
    expect(handle.stateSaver).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("StateSaver", () => {
  it("saves at most once per interval, and what is left on close", async () => {
    let version = 0;
    const snapshot = vi.fn(() => ({ version: ++version }) as unknown as SavedState);
    const saver = new StateSaver(stateFile, snapshot, 200);
    saver.changed();
    saver.changed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(snapshot).toHaveBeenCalledTimes(1);
    saver.changed();
    saver.changed();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(snapshot).toHaveBeenCalledTimes(1);
    saver.close();
    expect(snapshot).toHaveBeenCalledTimes(2);
    expect(savedState()).toEqual({ version: 2 });
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });
});
