import { spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type * as LabelsLock from "@/features/shipping/labels-lock.server";
import type * as LabelsRun from "@/features/shipping/labels-run.server";
import type * as PickingData from "@/features/shipping/picking-data.server";
import type * as Sellers from "@/lib/shops/shops.server";
import { createMarketplaceClient } from "@marketplace/api/client";
import { ordersQuery } from "@marketplace/api/list-query";
import { LABELS_RUN_LIMITS } from "@/features/shipping/label-merge";
import { LABEL_LIMITS } from "@/features/shipping/label-fetch.server";
import { LabelsStreamReader } from "@/features/shipping/labels-wire";
import type { LabelsEvent } from "@/features/shipping/labels-wire";
import { labelJobsOf } from "@/features/shipping/picking-list";
import type { LabelJob } from "@/features/shipping/picking-list";
import words from "@/messages/en/shipping.json";
import { startTestSandbox } from "@marketplace/sandbox/testing";
import type { TestSandbox } from "@marketplace/sandbox/testing";
import { useTestDatabase } from "../support/database";
import { freeFixedPorts } from "../support/free-port";
import { connectTestShop } from "../support/shops";

// A labels run's bounds (decision 0013) against a real database and the sandbox's labels: a run
// stops at its caps with the seller's sentence, and a shop has one run at a time, whichever
// instance serves it, the lock going when the run ends, the browser leaves or the process dies.

interface Shop {
  sellerId: string;
  token: string;
  jobs: LabelJob[];
}

let sandbox: TestSandbox;
let a: Shop;
let b: Shop;
let labelsRun: typeof LabelsRun;
let labelsLock: typeof LabelsLock;
/** What runs sent to `onError`: nothing is expected to. */
const unexpected: unknown[] = [];

async function createApprovedOrders(shop: string, count: number): Promise<void> {
  const created = await sandbox.api("/_sandbox/orders", { method: "POST", json: { seller: shop, count } });
  const { orders } = (await created.json()) as { orders: { id: string }[] };
  for (const order of orders) await sandbox.api(`/_sandbox/orders/${order.id}/status`, { method: "POST", json: { status: "approved" } });
}

/** The parcels of every approved order of the shop, as the route handler makes them for a selection of ids. */
async function labelJobsFor(shop: { sellerId: string; token: string }, shops: typeof Sellers, pickingData: typeof PickingData) {
  const client = createMarketplaceClient({ baseUrl: sandbox.url, accessToken: shop.token });
  const approved = await client.listOrders(ordersQuery({ status: "approved", limit: 100 }));
  const seller = (await shops.findCurrentShop(shop.sellerId))!;
  const loaded = await pickingData.loadPickingList(seller, { ids: approved.items.map((order) => order.id) }, { seesCustomers: true });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problem));
  return labelJobsOf(loaded.data.list);
}

beforeAll(async () => {
  await useTestDatabase();
  // The label addresses name the sandbox's public origin: make it the one it listens on.
  const [port] = await freeFixedPorts(1);
  sandbox = await startTestSandbox({ config: { port, publicUrl: `http://localhost:${port}`, seedOrders: 0 } });
  process.env.MARKETPLACE_BASE_URL = sandbox.url;
  labelsRun = await import("@/features/shipping/labels-run.server");
  labelsLock = await import("@/features/shipping/labels-lock.server");
  const shops = await import("@/lib/shops/shops.server");
  const pickingData = await import("@/features/shipping/picking-data.server");
  await createApprovedOrders("seller@example.com", 14);
  await createApprovedOrders("seller2@example.com", 3);
  const shopA = await connectTestShop({ sandboxUrl: sandbox.url });
  const shopB = await connectTestShop({ sandboxUrl: sandbox.url, login: "seller2@example.com", name: "Loja Dois" });
  a = { ...shopA, jobs: await labelJobsFor(shopA, shops, pickingData) };
  b = { ...shopB, jobs: await labelJobsFor(shopB, shops, pickingData) };
}, 60_000);

afterEach(async () => {
  await sandbox.api("/_sandbox/faults", { method: "DELETE" });
  expect(unexpected.splice(0)).toEqual([]);
});

afterAll(async () => {
  await sandbox?.close();
});

const faults = (json: Record<string, unknown>) => sandbox.api("/_sandbox/faults", { method: "POST", json });

/** What the route handler answers for these parcels of the shop, with the seller's sentences in English. */
function startRun(shop: Shop, jobs: readonly LabelJob[] = shop.jobs) {
  return labelsRun.labelsRunResponse({
    shopId: shop.sellerId,
    jobs,
    skipped: [],
    truncated: false,
    fetcher: { platformBaseUrl: sandbox.url, accessToken: shop.token },
    title: words.labels.documentTitle,
    failureMessage: words.labels.failed,
    tooLargeMessage: words.labels.tooLarge,
    busyMessage: words.labels.busy,
    onError: (error) => unexpected.push(error),
  });
}

/** The stream read to its end as the browser reads it. */
async function readAll(response: Response) {
  const reader = new LabelsStreamReader();
  const events: LabelsEvent[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) events.push(...reader.push(chunk));
  return { events, pdf: reader.pdf() };
}

describe("a labels run's caps", () => {
  it("stop a run whose labels would pass the run's bytes, with the seller's sentence and no PDF, then let the shop run again", async () => {
    // The finding's labels: 4.9 MB each, under the 5 MB a label; eleven of them pass 50 MB.
    const padding = 4_900_000;
    expect(padding).toBeLessThan(LABEL_LIMITS.maxBytes - 10_000);
    const count = Math.floor(LABELS_RUN_LIMITS.maxBytes / padding) + 1;
    expect(a.jobs.length).toBeGreaterThanOrEqual(count + 2);
    await faults({ labelPaddingBytes: padding });

    const response = await startRun(a, a.jobs.slice(0, count + 2));
    expect(response.status).toBe(200);
    const { events, pdf } = await readAll(response);
    expect(events[0]).toMatchObject({ type: "start", total: count + 2 });
    expect(events.at(-1)).toEqual({ type: "error", reason: "too_large", message: words.labels.tooLarge });
    expect(events.some((event) => event.type === "done")).toBe(false);
    expect(pdf).toBeNull();
    // No label past the one that passed the cap was merged.
    const merged = events.filter((event) => event.type === "progress").length;
    expect(merged).toBeLessThan(count);

    await sandbox.api("/_sandbox/faults", { method: "DELETE" });
    const next = await readAll(await startRun(a, a.jobs.slice(0, 2)));
    expect(next.events.at(-1)).toMatchObject({ type: "done", pages: 2 });
  }, 60_000);

  it("refuse, before fetching any label, a selection with more labels than the PDF may have pages", async () => {
    const many = Array.from({ length: LABELS_RUN_LIMITS.maxPages + 1 }, (_, index) => a.jobs[index % a.jobs.length]!);
    const response = await startRun(a, many);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: words.labels.tooLarge });
  });
});

describe("one labels run at a time per shop", () => {
  it("refuses a second run of the shop with 409 and the seller's sentence while another shop's run goes on", async () => {
    // Slow labels keep the first run going.
    await faults({ labelLatencyMs: 300 });
    const first = await startRun(a, a.jobs.slice(0, 3));
    expect(first.status).toBe(200);

    const second = await startRun(a, a.jobs.slice(0, 3));
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: words.labels.busy });

    const other = await startRun(b);
    expect(other.status).toBe(200);
    expect((await readAll(other)).events.at(-1)).toMatchObject({ type: "done", pages: b.jobs.length, failed: [] });

    // Read to its end, the first run has let go of the shop.
    expect((await readAll(first)).events.at(-1)).toMatchObject({ type: "done", pages: 3, failed: [] });
    const third = await startRun(a, a.jobs.slice(0, 1));
    expect(third.status).toBe(200);
    expect((await readAll(third)).events.at(-1)).toMatchObject({ type: "done", pages: 1 });
  });

  it("lets go of the shop when the browser stops reading", async () => {
    await faults({ labelLatencyMs: 2_000 });
    const first = await startRun(a, a.jobs.slice(0, 6));
    const reader = first.body!.getReader();
    await reader.read();
    // Resolves once the run has stopped.
    await reader.cancel();
    await sandbox.api("/_sandbox/faults", { method: "DELETE" });

    const next = await startRun(a, a.jobs.slice(0, 1));
    expect(next.status).toBe(200);
    expect((await readAll(next)).events.at(-1)).toMatchObject({ type: "done", pages: 1 });
  });

  it("holds across processes, and dies with the process that held it", async () => {
    // Another instance, in the middle of a run of this shop: it takes the lock and waits.
    const instance = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { tryLockLabelsRun } = await import("./features/shipping/labels-lock.server.ts");
         const lock = await tryLockLabelsRun(process.env.SHOP_ID);
         console.log(lock ? "locked" : "busy");
         setInterval(() => {}, 60_000);`,
      ],
      { env: { ...process.env, SHOP_ID: a.sellerId, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const said = await new Promise<string>((resolve, reject) => {
        instance.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
        instance.once("exit", (code) => reject(new Error(`the other instance exited with ${code}`)));
      });
      expect(said).toBe("locked");
      expect((await startRun(a, a.jobs.slice(0, 1))).status).toBe(409);
      expect(await labelsLock.tryLockLabelsRun(a.sellerId)).toBeNull();
    } finally {
      instance.kill("SIGKILL");
    }

    // Its connection closes with it, and PostgreSQL drops the lock when it notices.
    await expect
      .poll(
        async () => {
          const lock = await labelsLock.tryLockLabelsRun(a.sellerId);
          await lock?.release();
          return lock !== null;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
    const next = await startRun(a, a.jobs.slice(0, 1));
    expect(next.status).toBe(200);
    await readAll(next);
  }, 30_000);
});
