// What every check receives, and how a check says pass, fail or skip. A check answers the reason
// it passed; it fails with `fail(reason)` and is skipped with `skip(reason)`. Answers several
// checks read (the first page of each list, the scope probes) are fetched once per run.
import type { ConformanceOptions } from "./options";
import { UnreachableError, type Exchange, type HttpClient, type RequestSpec } from "./http";
import type { CheckResult } from "./report";

export class CheckFailed extends Error {}
export class CheckSkipped extends Error {}

export function fail(reason: string): never {
  throw new CheckFailed(reason);
}

export function skip(reason: string): never {
  throw new CheckSkipped(reason);
}

export function ensure(condition: unknown, reason: string | (() => string)): asserts condition {
  if (!condition) fail(typeof reason === "function" ? reason() : reason);
}

/** What the write checks created or changed, for the checks after them and for the restore. */
export interface WriteState {
  sku?: { code: string; id: string };
  price?: { id: string; value: number };
  /** The callback URL before the kit changed it (null: none was set); present once changed. */
  changedCallback?: { previous: string | null; receiverUrl: string };
}

export interface Kit {
  readonly options: ConformanceOptions;
  readonly http: HttpClient;
  /** Aborted on Ctrl-C: the checks left are skipped, except the ones that restore the account. */
  readonly signal: AbortSignal;
  readonly state: WriteState;
  /** A request with the run's token, unless `token` says otherwise (null: no Authorization header). */
  api: (spec: Omit<RequestSpec, "token"> & { token?: string | null }) => Promise<Exchange>;
  /** `compute()` once per run; later calls share its answer, or its failure. */
  once: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
  /** Runs when the run ends (the webhook receiver closes). */
  onDispose: (dispose: () => Promise<void>) => void;
}

export interface Check {
  name: string;
  /** Runs even after Ctrl-C: it puts back what the run changed. */
  cleanup?: boolean;
  run: (kit: Kit) => Promise<string>;
}

/**
 * Reads what another check verifies: its failure becomes this check's skip ("blocked by"), so one
 * broken answer is reported once, by the check that owns it.
 */
export async function prerequisite<T>(owner: string, value: () => Promise<T>): Promise<T> {
  try {
    return await value();
  } catch (error) {
    if (error instanceof CheckFailed || error instanceof UnreachableError) skip(`blocked: ${owner} failed`);
    throw error;
  }
}

export function createKit(options: ConformanceOptions, http: HttpClient, signal: AbortSignal): Kit & { dispose: () => Promise<void> } {
  const memo = new Map<string, Promise<unknown>>();
  const disposers: (() => Promise<void>)[] = [];
  return {
    options,
    http,
    signal,
    state: {},
    api: ({ token, ...spec }) => http.request({ ...spec, token: token === undefined ? options.token : token }),
    once: <T>(key: string, compute: () => Promise<T>) => {
      let value = memo.get(key) as Promise<T> | undefined;
      if (!value) {
        value = compute();
        // A shared failure is reported by each reader; never as an unhandled rejection.
        value.catch(() => undefined);
        memo.set(key, value);
      }
      return value;
    },
    onDispose: (dispose) => {
      disposers.push(dispose);
    },
    dispose: async () => {
      for (const dispose of disposers.reverse()) await dispose().catch(() => undefined);
    },
  };
}

async function runCheck(check: Check, kit: Kit): Promise<CheckResult> {
  try {
    return { name: check.name, outcome: "pass", reason: await check.run(kit) };
  } catch (error) {
    if (error instanceof CheckSkipped) return { name: check.name, outcome: "skip", reason: error.message };
    if (error instanceof CheckFailed || error instanceof UnreachableError)
      return { name: check.name, outcome: "fail", reason: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { name: check.name, outcome: "fail", reason: `the kit could not complete the check: ${message}` };
  }
}

/** Runs the checks one after the other (a platform may rate-limit a burst), reporting each as it ends. */
export async function runChecks(checks: readonly Check[], kit: Kit, onResult?: (result: CheckResult) => void): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const result: CheckResult =
      kit.signal.aborted && !check.cleanup ? { name: check.name, outcome: "skip", reason: "interrupted" } : await runCheck(check, kit);
    results.push(result);
    onResult?.(result);
  }
  return results;
}
