// One conformance run: every check in report order, against the platform the options name.
import { authChecks } from "./checks/auth";
import { listChecks } from "./checks/lists";
import { oauthChecks } from "./checks/oauth";
import { accountChecks, orderReadChecks, priceReadChecks } from "./checks/reads";
import { webhookDeliveryChecks, webhookRestoreCheck, webhookSetCheck } from "./checks/webhooks";
import { priceWriteChecks, skuChecks } from "./checks/writes";
import { createHttpClient } from "./http";
import { createKit, runChecks, type Check } from "./kit";
import { ORDER_LIST, PRICE_LIST } from "./list-endpoints";
import type { ConformanceOptions } from "./options";
import { summarize, type CheckResult, type Summary } from "./report";

/**
 * In report order. The writes come last and in this order: the callback URL points at the
 * receiver before the SKU is created (its notification is the one awaited), and is restored last.
 */
export const CHECKS: readonly Check[] = [
  ...oauthChecks,
  ...authChecks,
  ...accountChecks,
  ...listChecks(PRICE_LIST),
  ...priceReadChecks,
  ...listChecks(ORDER_LIST),
  ...orderReadChecks,
  webhookSetCheck,
  ...skuChecks,
  ...priceWriteChecks,
  ...webhookDeliveryChecks,
  webhookRestoreCheck,
];

export interface RunOptions {
  /** Ctrl-C: the checks left are skipped, the callback URL is still restored. */
  signal?: AbortSignal;
  /** Each result as its check ends (the command line prints it at once). */
  onResult?: (result: CheckResult) => void;
  fetch?: typeof fetch;
}

export interface ConformanceReport {
  results: CheckResult[];
  summary: Summary;
}

export async function runConformance(options: ConformanceOptions, run: RunOptions = {}): Promise<ConformanceReport> {
  const http = createHttpClient({
    baseUrl: options.baseUrl,
    ...(options.authUrl ? { authUrl: options.authUrl } : {}),
    timeoutMs: options.requestTimeoutMs,
    ...(run.fetch ? { fetch: run.fetch } : {}),
  });
  const kit = createKit(options, http, run.signal ?? new AbortController().signal);
  try {
    const results = await runChecks(CHECKS, kit, run.onResult);
    return { results, summary: summarize(results) };
  } finally {
    await kit.dispose();
  }
}
