"use server";

import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/actions/action-state";
import type { ActionAnswer } from "@/lib/actions/action-state";
import { requireShop } from "@/lib/auth/session";
import { recordBulkRun } from "@/lib/data/audit-bulk";
import { applyGuardedPriceRows, lastKnownPrices } from "@/lib/data/prices";
import { getDisplayFormat } from "@/lib/format.server";
import type { DisplayFormat } from "@/lib/format";
import { describeProblem } from "@/lib/platform-problem";
import { priceCreateSchema } from "@/lib/marketplace/schemas/price";
import type { BackoffState, HeldOutcome, RowResult } from "@/lib/prices/bulk-apply";
import { BULK_LIMITS, parseBulkPriceCsv } from "@/lib/prices/bulk-csv";
import { describeBulkMessage } from "@/lib/prices/bulk-messages";
import type { BulkMessageWords } from "@/lib/prices/bulk-messages";
import { previewBulkPrices } from "@/lib/prices/bulk-preview";
import type { BulkPreview } from "@/lib/prices/bulk-preview";
import { describeGuardReasons } from "@/lib/prices/guard-words";
import type { GuardWords } from "@/lib/prices/guard-words";
import type { GuardReason } from "@/lib/prices/price-guard";

export type PreviewBulkPricesState = ActionAnswer<BulkPreview>;

/** The upload, with its errors in the seller's language. */
const uploadSchema = (errors: { choose: string; empty: string; tooLarge: string }) =>
  z.object({
    file: z.file({ error: errors.choose }).min(1, { error: errors.empty }).max(BULK_LIMITS.maxFileBytes, { error: errors.tooLarge }),
  });

/**
 * Reads the uploaded CSV and compares it with the current prices (spec: 7. List prices), and marks
 * the rows the price guard holds (below the code's cost, or a move beyond the shop's limit).
 * Nothing is sent to the platform's create endpoint here.
 */
export async function previewBulkPricesAction(shopId: string, formData: FormData): Promise<PreviewBulkPricesState> {
  const { shop: seller } = await requireShop(shopId, "prices.change");
  const [t, messages] = await Promise.all([getTranslations("prices.bulk.action"), getTranslations("prices.bulk.messages")]);
  const upload = uploadSchema({ choose: messages("chooseFile"), empty: t("fileEmpty"), tooLarge: messages("fileTooLarge") }).safeParse({ file: formData.get("file") });
  if (!upload.success) return failed(upload.error.issues[0]?.message ?? messages("chooseFile"), { fieldErrors: { file: upload.error.issues.map((issue) => issue.message) } });

  let text: string;
  try {
    // TextDecoder with `fatal`: a file saved as Latin-1 would otherwise turn "ç" into "�" silently.
    text = new TextDecoder("utf-8", { fatal: true }).decode(await upload.data.file.arrayBuffer());
  } catch {
    return failed(t("notUtf8"));
  }
  const parsed = parseBulkPriceCsv(text, { maxRows: BULK_LIMITS.maxRows });
  if (!parsed.ok) return failed(describeBulkMessage(parsed.error, messages));

  const preview = await previewBulkPrices(seller, parsed);
  if (!preview.ok) {
    const message = preview.problem.kind === "error" ? preview.problem.message : t("noCurrentPrices");
    return failed(message, { problem: preview.problem });
  }
  // The rows' reasons (invalid ones) stay codes: the page words them (components/prices/bulk-preview-table.tsx).
  return succeeded(t("rowsRead", { count: preview.data.rows.length }), preview.data);
}

// One row to apply: the price create body (spec: Resources → Price) plus where it came from.
const applyRowSchema = priceCreateSchema
  .pick({ sku: true, type: true, value: true, currency: true })
  .extend({
    normalizer: z.number().int().positive(),
    line: z.number().int().min(2),
    /** Currency units as shown to the seller; echoed back, never sent to the platform. */
    amount: z.string().max(40),
    transientFailures: z.number().int().min(0).max(20).optional(),
  });
export type ApplyPriceRow = z.infer<typeof applyRowSchema>;

const batchSchema = z.object({
  rows: z
    .array(applyRowSchema)
    .min(1)
    .max(BULK_LIMITS.maxBatchRows)
    // Worded by the action (prices.bulk.action.lineTwice): the only custom issue of this schema.
    .refine((rows) => new Set(rows.map((row) => row.line)).size === rows.length),
  backoff: z.object({ rateLimitStreak: z.number().int().min(0).max(30) }).optional(),
  /** The upload this batch belongs to: its audit entry adds up every batch's outcomes. */
  run: z.object({ id: z.uuid(), source: z.enum(["csv", "percent"]) }),
  /** The products (SKU codes) whose held changes the seller confirmed: the only held rows sent. */
  confirmed: z.array(z.string().min(1).max(50)).max(BULK_LIMITS.maxBatchRows).default([]),
});

export interface AppliedRowResult {
  line: number;
  /** "held": the price guard held the row on the server and it was not confirmed: not sent. */
  outcome: "applied" | "rejected" | "failed" | "held";
  message: string;
  priceId: string | null;
  /** Why a held row was held. */
  reasons?: GuardReason[];
}

/** Outcomes of the rows a batch finished, and its rows still without one. */
export interface BatchPartial {
  results: AppliedRowResult[];
  /** Rows of this batch without an outcome yet: send them again (after `resumeAfterMs`). */
  pending: ApplyPriceRow[];
}

export interface BatchProgress extends BatchPartial {
  resumeAfterMs: number;
  backoff: BackoffState;
  /** Times this call slowed down because the platform blocked it (statusCode -2 / HTTP 429). */
  slowDowns: number;
}

export type ApplyPriceBatchState = ActionAnswer<BatchProgress, BatchPartial>;

/**
 * No new request starts after this long, so the call returns well before proxies and browsers
 * give up; a request already in flight finishes within the HTTP client's own timeout.
 */
const CALL_BUDGET_MS = 18_000;
/** Longer rate-limit waits are taken by the page, which shows the countdown, not by this request. */
const HAND_BACK_WAITS_OVER_MS = 3_000;

/** A row's outcome for the page: the platform's message, or a failure or hold worded in the seller's language. */
function toResult(result: RowResult<ApplyPriceRow, HeldOutcome>, messages: BulkMessageWords, guard: GuardWords, format: DisplayFormat): AppliedRowResult {
  const line = result.row.line;
  if (result.outcome === "held") return { line, outcome: "held", message: describeGuardReasons(result.reasons, guard, format), priceId: null, reasons: result.reasons };
  return {
    line,
    outcome: result.outcome,
    message: result.outcome === "failed" ? describeBulkMessage(result.reason, messages) : result.message,
    priceId: result.outcome === "applied" ? result.priceId : null,
  };
}

const wasSent = (result: AppliedRowResult): result is AppliedRowResult & { outcome: "applied" | "rejected" | "failed" } => result.outcome !== "held";

/**
 * Applies up to `BULK_LIMITS.maxBatchRows` rows (spec: 5. Create price), one request per row,
 * slowing down when the platform blocks (statusCode -2 / HTTP 429) and retrying transient
 * failures. Returns one outcome per finished row and the rows still pending; the page sends
 * those again, so a deadline or a block never loses a row. Every row is judged again by the price
 * guard with the platform's current price and the stored cost (lib/data/prices.ts
 * applyGuardedPriceRows): a held row whose product is not in `confirmed` ends "held", unsent.
 */
export async function applyPriceBatchAction(
  shopId: string,
  rows: ApplyPriceRow[],
  options: { backoff?: BackoffState; run: { id: string; source: "csv" | "percent" }; confirmed?: string[] },
): Promise<ApplyPriceBatchState> {
  // The upload names its shop: a tab that has since opened another shop still sends to the one
  // the upload was started in, and only if this person may still change its prices.
  const { shop: seller, person } = await requireShop(shopId, "prices.change");
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
    // zod's own words for a malformed batch (only a changed page sends one); ours for a line twice.
    const reason = issue === undefined ? t("unknownError") : issue.code === "custom" ? t("lineTwice") : issue.message;
    return failed(t("batchInvalid", { reason }), { data: { results: [], pending: [] } });
  }
  const batch = parsed.data.rows;

  // Outcomes are collected as they happen: when a 401/403 stops the batch, withPlatform answers
  // with the problem and these still tell which rows were done before it.
  const results: AppliedRowResult[] = [];
  const before = await lastKnownPrices(seller.id, batch);
  const run = await applyGuardedPriceRows(seller, batch, {
    confirmed: new Set(parsed.data.confirmed),
    onResult: (result) => results.push(toResult(result, messages, guardWords, format)),
    maxWaitMs: CALL_BUDGET_MS,
    handBackWaitsOverMs: HAND_BACK_WAITS_OVER_MS,
    backoff: parsed.data.backoff,
  });

  // A held row was not sent: nothing of it belongs in the log.
  await recordBulkRun(seller.id, person, parsed.data.run, before, batch, results.filter(wasSent));
  if (!run.ok) {
    const done = new Set(results.map((result) => result.line));
    const message = describeProblem(run.problem, problems, "setPrices", "resume");
    return failed(message, { problem: run.problem, data: { results, pending: batch.filter((row) => !done.has(row.line)) } });
  }
  const { pending, resumeAfterMs, backoff, slowDowns } = run.data;
  return succeeded(t("rowsDone", { count: results.length }), { results, pending, resumeAfterMs, backoff, slowDowns });
}
