// What every route module receives: the live state of one sandbox instance. `store` is replaced
// on reset, so handlers read `ctx.store` per request instead of keeping a reference.
import type { CallbackGuard } from "./callback-guard";
import type { SandboxClock } from "./clock";
import type { SandboxConfig } from "./config";
import type { FaultState } from "./faults";
import type { SeededRandom } from "./random";
import type { OrderPools } from "./seed";
import type { AccessToken, IntegratorApp, SandboxStore, SandboxUser } from "./store";
import type { WebhookDispatcher } from "./webhooks";

export interface SandboxContext {
  config: SandboxConfig;
  store: SandboxStore;
  clock: SandboxClock;
  faults: FaultState;
  webhooks: WebhookDispatcher;
  /** Which callback URLs may be set and called (SANDBOX_HOST, SANDBOX_ALLOW_PRIVATE_CALLBACKS). */
  callbacks: CallbackGuard;
  pools: OrderPools;
  /** Randomness for orders created through the control API (seeded, so runs are repeatable). */
  runtimeRandom: SeededRandom;
  newId: (timeMs: number) => string;
  /** Changes whenever the sandbox seeds from scratch, so `npm run dev` knows the platform started over. */
  epoch: string;
  /** The instant the seeded orders run up to: the clock when it seeded, or SANDBOX_SEED_BASE (seed/time.ts). */
  seedBaseTime: number;
  reset: (overrides?: { seedOrders?: number }) => void;
}

export interface AuthContext {
  token: AccessToken;
  user: SandboxUser;
  app: IntegratorApp;
}

export type SandboxEnv = { Variables: { auth: AuthContext } };
