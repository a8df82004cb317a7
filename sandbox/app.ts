// Builds one sandbox instance: state, routes and the webhook worker. `main.ts` serves it; tests
// and the benchmark start it on a random port with `startSandboxServer`.
import { isIP, type AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { bodyTooLargeMessage, JSON_BODY_LIMIT_BYTES, limitRequestBodies } from "./body-limit";
import { CallbackGuard, type HostAddresses, type HostLookup } from "./callback-guard";
import { SandboxClock } from "./clock";
import { assertSafeExposure, callbackPolicy, defaultSandboxConfig, type SandboxConfig } from "./config";
import type { SandboxContext, SandboxEnv } from "./context";
import { assetRoutes } from "./assets";
import { consoleRoutes } from "./console";
import { deliveryResendRoutes } from "./console-resend";
import { controlRoutes } from "./control";
import { SandboxHttpError, errorResponse } from "./errors";
import { FaultState } from "./faults";
import { oauthBodyLimits, oauthRoutes } from "./oauth";
import { openApiRoutes } from "./openapi-docs";
import { orderRoutes } from "./orders";
import { priceBodyLimit, priceRoutes } from "./prices";
import { createObjectIdFactory, SeededRandom } from "./random";
import { seedBaseTime, seedStore } from "./seed";
import { skuBodyLimit, skuRoutes } from "./skus";
import { beginSandbox, newEpoch, seedSettings, snapshotSandbox, StateSaver } from "./state-file";
import { SandboxStore } from "./store";
import { userInfoRoutes } from "./user-info";
import { webhookUrlRoutes } from "./webhook-url";
import { currentSigningToken } from "./notify";
import { WebhookDispatcher } from "./webhooks";

export interface SandboxOptions {
  config?: Partial<SandboxConfig>;
  /** Used by the webhook dispatcher (tests may stub it). */
  fetch?: typeof fetch;
  /** Resolves callback URL hosts for the address checks (tests may stub it; default node:dns lookup). */
  lookup?: HostLookup;
  /** This machine's own addresses, refused as callbacks when exposed (tests may stub it; default os.networkInterfaces()). */
  hostAddresses?: HostAddresses;
  /** Start the webhook dispatcher at once (default true). */
  startDelivery?: boolean;
}

export interface SandboxHandle {
  app: Hono<SandboxEnv>;
  context: SandboxContext;
  /** Current state (replaced by reset). */
  readonly store: SandboxStore;
  clock: SandboxClock;
  faults: FaultState;
  webhooks: WebhookDispatcher;
  reset: SandboxContext["reset"];
  startDelivery: () => void;
  stopDelivery: () => Promise<void>;
  /** True when the state came from SANDBOX_STATE_FILE rather than the seed. */
  restored: boolean;
  /** Saves the state to SANDBOX_STATE_FILE (null without one); `close()` it on shutdown. */
  stateSaver: StateSaver | null;
}

export function createSandbox(options: SandboxOptions = {}): SandboxHandle {
  const config = defaultSandboxConfig(options.config);
  assertSafeExposure(config);
  const clock = new SandboxClock();
  const faults = new FaultState();
  const callbacks = new CallbackGuard(
    callbackPolicy(config),
    options.lookup,
    options.hostAddresses ? { hostAddresses: options.hostAddresses } : {},
  );
  const webhooks = new WebhookDispatcher({
    clock,
    faults,
    guard: callbacks,
    // Its own stream: webhook faults must not change the orders the control API generates.
    seed: config.seed + 1,
    timeoutMs: config.webhookTimeoutMs,
    retryDelaysMs: config.webhookRetryDelaysMs,
    logSize: config.deliveryLogSize,
    concurrency: config.deliveryConcurrency,
    // Each attempt is signed with the user's token of that moment (`ctx` is read when it runs).
    signingToken: (clientId, userId) => currentSigningToken(ctx, clientId, userId),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const beginning = beginSandbox(config, clock.now());
  clock.restore(beginning.clockOffsetMs);
  const ctx: SandboxContext = {
    config: { ...config, seedOrders: beginning.seedOrders },
    store: beginning.store,
    clock,
    faults,
    webhooks,
    callbacks,
    pools: beginning.pools,
    runtimeRandom: new SeededRandom(beginning.runtimeSeed),
    newId: createObjectIdFactory(),
    epoch: beginning.epoch,
    seedBaseTime: beginning.seedBaseTime,
    reset: (overrides = {}) => {
      // The clock first: a reset seeds a shop whose history runs up to now (unless SANDBOX_SEED_BASE pins it).
      clock.reset();
      const next = new SandboxStore();
      ctx.config = { ...ctx.config, ...overrides };
      ctx.seedBaseTime = seedBaseTime(ctx.config.seedBase, clock.now());
      ctx.pools = seedStore(next, ctx.config, ctx.seedBaseTime);
      ctx.store = next;
      ctx.runtimeRandom = new SeededRandom(ctx.config.seed + 99);
      ctx.epoch = newEpoch();
      faults.clear();
      webhooks.clear();
      // Overwritten at once: a restart right after a reset must not bring the old platform back.
      stateSaver?.saveNow();
    },
  };
  // Compared with the saved settings at the next start: those of the environment, not a reset's.
  const seededWith = seedSettings(config);
  const stateSaver = config.stateFile === undefined ? null : new StateSaver(config.stateFile, () => snapshotSandbox(ctx, seededWith));
  // A fresh seed is saved at once, so that its epoch outlives a restart that changed nothing.
  if (!beginning.restored) stateSaver?.saveNow();

  const app = new Hono<SandboxEnv>();

  // Only requests change the state, and only those that are not GET or HEAD (a GET at most fills
  // caches): each one marks it for the next save.
  if (stateSaver) {
    app.use(async (c, next) => {
      await next();
      if (c.req.method !== "GET" && c.req.method !== "HEAD") stateSaver.changed();
    });
  }

  // Before anything reads a body: a route never holds more than its limit in memory.
  app.use(
    limitRequestBodies([...oauthBodyLimits, skuBodyLimit, priceBodyLimit], {
      maxBytes: JSON_BODY_LIMIT_BYTES,
      tooLarge: (c, maxBytes) => errorResponse(c, new SandboxHttpError(413, "payload_too_large", bodyTooLargeMessage(maxBytes))),
    }),
  );

  // Fault `latencyMs` slows every API call, the token exchange included.
  app.use("/v1.0/*", async (_c, next) => {
    const delay = faults.current.latencyMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    await next();
  });

  app.route("/", oauthRoutes(ctx));
  app.route("/", userInfoRoutes(ctx));
  app.route("/", skuRoutes(ctx));
  app.route("/", priceRoutes(ctx));
  app.route("/", orderRoutes(ctx));
  app.route("/", webhookUrlRoutes(ctx));
  app.route("/", controlRoutes(ctx));
  // After the control routes: their token check and SANDBOX_CONTROL=off apply to these too.
  app.route("/", deliveryResendRoutes(ctx));
  app.route(
    "/",
    consoleRoutes(ctx, (request) => app.fetch(request)),
  );
  app.route("/", assetRoutes(ctx));
  app.route("/", openApiRoutes());

  app.notFound((c) =>
    errorResponse(c, new SandboxHttpError(404, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}`)),
  );
  app.onError((error, c) => {
    if (error instanceof SandboxHttpError) return errorResponse(c, error);
    if (error instanceof HTTPException && error.status < 500) {
      // Raised by hono's validator, e.g. malformed JSON.
      return errorResponse(c, new SandboxHttpError(400, "invalid_request", error.message));
    }
    console.error("sandbox: unexpected error", error);
    return errorResponse(c, new SandboxHttpError(500, "server_error", "Unexpected server error"));
  });

  if (options.startDelivery ?? true) webhooks.start();

  return {
    app,
    context: ctx,
    get store() {
      return ctx.store;
    },
    clock,
    faults,
    webhooks,
    reset: ctx.reset,
    startDelivery: () => webhooks.start(),
    stopDelivery: () => webhooks.stop(),
    restored: beginning.restored,
    stateSaver,
  };
}

export interface RunningSandbox {
  handle: SandboxHandle;
  /** Where this machine reaches it. */
  url: string;
  /** The address it listens on (SANDBOX_HOST resolved, e.g. 127.0.0.1). */
  address: string;
  port: number;
  close: () => Promise<void>;
}

/** `localhost` for the loopback and wildcard addresses (the origin the README and seeded links use), else the address. */
function localUrl(address: string, port: number): string {
  if (address === "127.0.0.1" || address === "0.0.0.0" || address === "::") return `http://localhost:${port}`;
  return `http://${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}

/** Starts a sandbox on `config.host` and `config.port` (0 = a free port) and resolves once it listens. */
export async function startSandboxServer(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const handle = createSandbox(options);
  const { port, host } = handle.context.config;
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: handle.app.fetch, port, hostname: host }, (info: AddressInfo) => {
      const close = async () => {
        await handle.stopDelivery();
        handle.stateSaver?.close();
        await new Promise<void>((done) => {
          server.close(() => done());
          if ("closeAllConnections" in server) server.closeAllConnections();
        });
      };
      resolve({ handle, url: localUrl(info.address, info.port), address: info.address, port: info.port, close });
    });
    server.once("error", reject);
  });
}
