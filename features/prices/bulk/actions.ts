"use server";

import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { failed, succeeded } from "@/lib/action-state";
import type { ActionAnswer } from "@/lib/action-state";
import { requireShop } from "@/lib/auth/session.server";
import { recordBulkRun } from "@/features/prices/bulk/audit-bulk.server";
import { applyGuardedPriceRows, priceKey } from "@/features/prices/prices.server";
import type { KnownPrice } from "@/features/prices/prices.server";
import { getDisplayFormat } from "@/lib/format.server";
import type { DisplayFormat } from "@/lib/format";
import { describeProblem } from "@/lib/platform-problem";
import { priceCreateSchema } from "@marketplace/api/schemas/price";
import type { BackoffState, GuardedOutcome, RowResult } from "@/features/prices/bulk/bulk-apply";
import { BULK_LIMITS, parseBulkPriceCsv } from "@/features/prices/bulk/bulk-csv";
import { describeBulkMessage } from "@/features/prices/bulk/bulk-messages";
import type { BulkMessageWords } from "@/features/prices/bulk/bulk-messages";
import { previewBulkPrices } from "@/features/prices/bulk/bulk-preview.server";
import type { BulkPreview } from "@/features/prices/bulk/bulk-preview.server";
import { bulkRunRecord, previewBulkUndo, withUndoLock } from "@/features/prices/bulk/bulk-undo.server";
import { undoGate } from "@/features/prices/bulk/bulk-undo";
import type { UndoGate } from "@/features/prices/bulk/bulk-undo";
import { describeGuardReasons } from "@/features/prices/guard/guard-words";
import type { GuardWords } from "@/features/prices/guard/guard-words";
import type { GuardReason } from "@/features/prices/guard/price-guard";

export type PreviewBulkPricesState = ActionAnswer<BulkPreview>;

const uploadSchema = (errors: { choose: string; empty: string; tooLarge: string }) =>
  z.object({
    file: z.file({ error: errors.choose }).min(1, { error: errors.empty }).max(BULK_LIMITS.maxFileBytes, { error: errors.tooLarge }),
  });

/**
 * Compares the upload with the current prices and marks what the price guard holds; sends nothing.
 * With `undo` (a run's id) instead of a file, previews undoing that run (bulk-undo.server.ts): the
 * same question, what a bulk change would do, asked of the prices the run replaced.
 */
export async function previewBulkPricesAction(shopId: string, formData: FormData): Promise<PreviewBulkPricesState> {
  const { shop } = await requireShop(shopId, "prices.change");
  const [t, messages] = await Promise.all([getTranslations("prices.bulk.action"), getTranslations("prices.bulk.messages")]);
  const undo = formData.get("undo");
  if (undo !== null) {
    const runId = z.uuid().safeParse(undo);
    const preview = runId.success ? await previewBulkUndo(shop, runId.data) : ({ ok: false, refusal: "notFound" } as const);
    if ("refusal" in preview) return failed(t(preview.refusal === "isUndo" ? "undoOfUndo" : "undoNotFound"));
    if (!preview.ok) {
      const message = preview.problem.kind === "error" ? preview.problem.message : t("noCurrentPrices");
      return failed(message, { problem: preview.problem });
    }
    return succeeded(t("rowsRead", { count: preview.data.rows.length }), preview.data);
  }
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
  /** One audit entry adds up every batch of the upload; an undo names the run it undoes. */
  run: z.discriminatedUnion("source", [
    z.object({ id: z.uuid(), source: z.enum(["csv", "percent"]) }),
    z.object({ id: z.uuid(), source: z.literal("undo"), undoOf: z.uuid() }),
  ]),
  /** SKU codes whose held changes the seller confirmed: the only held rows sent. */
  confirmed: z.array(z.string().min(1).max(50)).max(BULK_LIMITS.maxBatchRows).default([]),
});

export interface AppliedRowResult {
  line: number;
  /**
   * "held": held by the price guard on the server and not confirmed, so not sent. "skipped": an
   * undo's row left as it is (its price changed since the run, or is already back).
   */
  outcome: "applied" | "rejected" | "failed" | "held" | "skipped";
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
  result: RowResult<ApplyPriceRow, GuardedOutcome>,
  messages: BulkMessageWords,
  guard: GuardWords,
  format: DisplayFormat,
): AppliedRowResult {
  const line = result.row.line;
  if (result.outcome === "held")
    return { line, outcome: "held", message: describeGuardReasons(result.reasons, guard, format), priceId: null, reasons: result.reasons };
  if (result.outcome === "skipped")
    return { line, outcome: "skipped", message: describeBulkMessage(result.reason, messages), priceId: null };
  return {
    line,
    outcome: result.outcome,
    message: result.outcome === "failed" ? describeBulkMessage(result.reason, messages) : result.message,
    priceId: result.outcome === "applied" ? result.priceId : null,
  };
}

/** Held rows were never sent nor meant to be, so nothing of them belongs in the log; skipped ones count as skipped. */
const wasJudged = (result: AppliedRowResult): result is AppliedRowResult & { outcome: "applied" | "rejected" | "failed" | "skipped" } =>
  result.outcome !== "held";

/**
 * Up to `BULK_LIMITS.maxBatchRows` rows; unfinished ones come back as `pending`, so a deadline or
 * a block never loses a row. The price guard judges every row again with current prices and costs.
 */
export async function applyPriceBatchAction(
  shopId: string,
  rows: ApplyPriceRow[],
  options: {
    backoff?: BackoffState;
    run: { id: string; source: "csv" | "percent" } | { id: string; source: "undo"; undoOf: string };
    confirmed?: string[];
  },
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
  const { run: bulkRun, confirmed } = parsed.data;

  // An undo sends only what its run replaced, judged again on the prices read just before.
  let gate: UndoGate | null = null;
  if (bulkRun.source === "undo") {
    const record = await bulkRunRecord(shop.id, bulkRun.undoOf);
    if (record.kind !== "run")
      return failed(t(record.kind === "undo" ? "undoOfUndo" : "undoNotFound"), { data: { results: [], pending: [] } });
    gate = undoGate(record.changes);
  }
  // Collected as they happen, so a 401/403 that stops the batch still leaves the rows done before it.
  const results: AppliedRowResult[] = [];
  const refused = new Set<number>();
  for (const row of parsed.data.rows) {
    const refusal = gate?.refuse(row);
    if (!refusal) continue;
    refused.add(row.line);
    results.push({ line: row.line, outcome: "skipped", message: describeBulkMessage({ code: refusal }, messages), priceId: null });
  }
  const batch = parsed.data.rows.filter((row) => !refused.has(row.line));
  /** What the platform held just before each row was sent: the audit log's "before", and what an undo goes back to. */
  const before = new Map<string, KnownPrice | null>();
  const confirmedPast = new Map<number, GuardReason[]>();
  const send = async () => {
    const outcome = await applyGuardedPriceRows(shop, batch, {
      confirmed: new Set(confirmed),
      onConfirmedPastGuard: (row, reasons) => confirmedPast.set(row.line, reasons),
      precondition: (row, current) => {
        const skip = gate?.skip(row, current);
        return skip ? { outcome: "skipped", reason: { code: skip } } : null;
      },
      onSend: (row, current) => {
        const price = current[row.type];
        before.set(
          priceKey(row.sku, row.type),
          price ? { type: row.type, value: price.value, currency: price.currency, normalizer: price.normalizer } : null,
        );
      },
      onResult: (result) => results.push(toResult(result, messages, guardWords, format)),
      maxWaitMs: CALL_BUDGET_MS,
      handBackWaitsOverMs: HAND_BACK_WAITS_OVER_MS,
      backoff: parsed.data.backoff,
    });
    await recordBulkRun(shop.id, person, bulkRun, before, parsed.data.rows, results.filter(wasJudged), confirmedPast);
    return outcome;
  };
  const run = bulkRun.source === "undo" ? await withUndoLock(shop.id, bulkRun.undoOf, send) : await send();

  if (!run.ok) {
    const done = new Set(results.map((result) => result.line));
    const message = describeProblem(run.problem, problems, "setPrices", "resume");
    return failed(message, { problem: run.problem, data: { results, pending: batch.filter((row) => !done.has(row.line)) } });
  }
  const { pending, resumeAfterMs, backoff, slowDowns } = run.data;
  return succeeded(t("rowsDone", { count: results.length }), { results, pending, resumeAfterMs, backoff, slowDowns });
}
