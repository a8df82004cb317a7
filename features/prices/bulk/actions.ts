"use server";

import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionAnswer } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { recordBulkRun } from "@/features/prices/bulk/audit-bulk.server";
import { applyGuardedPriceRows, lastKnownPrices } from "@/features/prices/prices.server";
import { getDisplayFormat } from "@/lib/format.server";
import type { DisplayFormat } from "@/lib/format";
import { describeProblem } from "@/lib/platform-problem";
import { priceCreateSchema } from "@marketplace/api/schemas/price";
import type { BackoffState, HeldOutcome, RowResult } from "@/features/prices/bulk/bulk-apply";
import { BULK_LIMITS, parseBulkPriceCsv } from "@/features/prices/bulk/bulk-csv";
import { describeBulkMessage } from "@/features/prices/bulk/bulk-messages";
import type { BulkMessageWords } from "@/features/prices/bulk/bulk-messages";
import { previewBulkPrices } from "@/features/prices/bulk/bulk-preview.server";
import type { BulkPreview } from "@/features/prices/bulk/bulk-preview.server";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";
import type { GuardWords } from "@/features/prices/guard/guard-words";
import type { GuardReason } from "@/features/prices/guard/price-guard";

export type PreviewBulkPricesState = ActionAnswer<BulkPreview>;

const uploadSchema = (errors: { choose: string; empty: string; tooLarge: string }) =>
  z.object({
    file: z.file({ error: errors.choose }).min(1, { error: errors.empty }).max(BULK_LIMITS.maxFileBytes, { error: errors.tooLarge }),
  });

/** Compares the upload with the current prices and marks what the price guard holds; sends nothing. */
export async function previewBulkPricesAction(shopId: string, formData: FormData): Promise<PreviewBulkPricesState> {
  const { shop } = await requireShop(shopId, "prices.change");
  const [t, messages] = await Promise.all([getTranslations("prices.bulk.action"), getTranslations("prices.bulk.messages")]);
  const upload = uploadSchema({ choose: messages("chooseFile"), empty: t("fileEmpty"), tooLarge: messages("fileTooLarge") }).safeParse({
    file: formData.get("file"),
  });
  if (!upload.success)
    return failed(upload.error.issues[0]?.message ?? messages("chooseFile"), {
      fieldErrors: { file: upload.error.issues.map((issue) => issue.message) },
    });

  let text: string;
  try {
    // `fatal`: a file saved as Latin-1 would otherwise turn "ç" into "�" silently.
    text = new TextDecoder("utf-8", { fatal: true }).decode(await upload.data.file.arrayBuffer());
  } catch {
    return failed(t("notUtf8"));
  }
  const parsed = parseBulkPriceCsv(text, { maxRows: BULK_LIMITS.maxRows });
  if (!parsed.ok) return failed(describeBulkMessage(parsed.error, messages));

  const preview = await previewBulkPrices(shop, parsed);
  if (!preview.ok) {
    const message = preview.problem.kind === "error" ? preview.problem.message : t("noCurrentPrices");
    return failed(message, { problem: preview.problem });
  }
  // The rows' reasons stay codes: the page words them.
  return succeeded(t("rowsRead", { count: preview.data.rows.length }), preview.data);
}

const applyRowSchema = priceCreateSchema.pick({ sku: true, type: true, value: true, currency: true }).extend({
  normalizer: z.number().int().positive(),
  line: z.number().int().min(2),
  /** Echoed back to the seller, never sent to the platform. */
  amount: z.string().max(40),
  transientFailures: z.number().int().min(0).max(20).optional(),
});
export type ApplyPriceRow = z.infer<typeof applyRowSchema>;

const batchSchema = z.object({
  rows: z
    .array(applyRowSchema)
    .min(1)
    .max(BULK_LIMITS.maxBatchRows)
    // The schema's only custom issue, worded by the action.
    .refine((rows) => new Set(rows.map((row) => row.line)).size === rows.length),
  backoff: z.object({ rateLimitStreak: z.number().int().min(0).max(30) }).optional(),
  /** One audit entry adds up every batch of the upload. */
  run: z.object({ id: z.uuid(), source: z.enum(["csv", "percent"]) }),
  /** SKU codes whose held changes the seller confirmed: the only held rows sent. */
  confirmed: z.array(z.string().min(1).max(50)).max(BULK_LIMITS.maxBatchRows).default([]),
});

export interface AppliedRowResult {
  line: number;
  /** "held": held by the price guard on the server and not confirmed, so not sent. */
  outcome: "applied" | "rejected" | "failed" | "held";
  message: string;
  priceId: string | null;
  reasons?: GuardReason[];
}

export interface BatchPartial {
  results: AppliedRowResult[];
  /** To send again, after `resumeAfterMs`. */
  pending: ApplyPriceRow[];
}

export interface BatchProgress extends BatchPartial {
  resumeAfterMs: number;
  backoff: BackoffState;
  slowDowns: number;
}

export type ApplyPriceBatchState = ActionAnswer<BatchProgress, BatchPartial>;

/** No request starts after this, so the call returns well before proxies and browsers give up. */
const CALL_BUDGET_MS = 18_000;
/** Longer rate-limit waits are the page's, which shows the countdown. */
const HAND_BACK_WAITS_OVER_MS = 3_000;

function toResult(
  result: RowResult<ApplyPriceRow, HeldOutcome>,
  messages: BulkMessageWords,
  guard: GuardWords,
  format: DisplayFormat,
): AppliedRowResult {
  const line = result.row.line;
  if (result.outcome === "held")
    return { line, outcome: "held", message: describeGuardReasons(result.reasons, guard, format), priceId: null, reasons: result.reasons };
  return {
    line,
    outcome: result.outcome,
    message: result.outcome === "failed" ? describeBulkMessage(result.reason, messages) : result.message,
    priceId: result.outcome === "applied" ? result.priceId : null,
  };
}

const wasSent = (result: AppliedRowResult): result is AppliedRowResult & { outcome: "applied" | "rejected" | "failed" } =>
  result.outcome !== "held";

/**
 * Up to `BULK_LIMITS.maxBatchRows` rows; unfinished ones come back as `pending`, so a deadline or
 * a block never loses a row. The price guard judges every row again with current prices and costs.
 */
export async function applyPriceBatchAction(
  shopId: string,
  rows: ApplyPriceRow[],
  options: { backoff?: BackoffState; run: { id: string; source: "csv" | "percent" }; confirmed?: string[] },
): Promise<ApplyPriceBatchState> {
  // The upload's own shop, whatever this tab has opened since.
  const { shop, person } = await requireShop(shopId, "prices.change");
  const [t, messages, problems, guardWords, format] = await Promise.all([
    getTranslations("prices.bulk.action"),
    getTranslations("prices.bulk.messages"),
    getTranslations("problems"),
    getTranslations("prices.guard"),
    getDisplayFormat(),
  ]);
  const parsed = batchSchema.safeParse({ rows, backoff: options?.backoff, run: options?.run, confirmed: options?.confirmed });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Only a changed page sends a malformed batch, so zod's words do; ours for a line twice.
    const reason = issue === undefined ? t("unknownError") : issue.code === "custom" ? t("lineTwice") : issue.message;
    return failed(t("batchInvalid", { reason }), { data: { results: [], pending: [] } });
  }
  const batch = parsed.data.rows;

  // Collected as they happen, so a 401/403 that stops the batch still leaves the rows done before it.
  const results: AppliedRowResult[] = [];
  const before = await lastKnownPrices(shop.id, batch);
  const confirmedPast = new Map<number, GuardReason[]>();
  const run = await applyGuardedPriceRows(shop, batch, {
    confirmed: new Set(parsed.data.confirmed),
    onConfirmedPastGuard: (row, reasons) => confirmedPast.set(row.line, reasons),
    onResult: (result) => results.push(toResult(result, messages, guardWords, format)),
    maxWaitMs: CALL_BUDGET_MS,
    handBackWaitsOverMs: HAND_BACK_WAITS_OVER_MS,
    backoff: parsed.data.backoff,
  });

  // A held row was not sent, so nothing of it belongs in the log.
  await recordBulkRun(shop.id, person, parsed.data.run, before, batch, results.filter(wasSent), confirmedPast);
  if (!run.ok) {
    const done = new Set(results.map((result) => result.line));
    const message = describeProblem(run.problem, problems, "setPrices", "resume");
    return failed(message, { problem: run.problem, data: { results, pending: batch.filter((row) => !done.has(row.line)) } });
  }
  const { pending, resumeAfterMs, backoff, slowDowns } = run.data;
  return succeeded(t("rowsDone", { count: results.length }), { results, pending, resumeAfterMs, backoff, slowDowns });
}
