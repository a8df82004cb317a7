import { createTranslator } from "next-intl";
import { failed, succeeded } from "@/lib/action-state";
import { describe, expect, it } from "vitest";
import type { AppliedRowResult, ApplyPriceBatchState, ApplyPriceRow } from "@/features/prices/bulk/actions";
import { catalogues } from "@/messages";
import type { Messages } from "@/messages";
import { describeBulkMessage } from "./bulk-messages";
import type { BulkMessage, BulkMessageWords } from "./bulk-messages";
import type { BulkPreview, PreviewRow } from "./bulk-preview-rows";
import {
  bulkUploadReducer,
  initialBulkUploadState,
  MAX_CALL_FAILURES,
  outcomeCounts,
  refuseUploadFile,
  resultLines,
  slowDownOf,
} from "./bulk-upload-state";
import type { BulkUploadAction, BulkUploadState, Upload } from "./bulk-upload-state";

// The reducer says what happened as codes; the page words them. The assertions read the wording.
const wording = (locale: "en" | "pt-BR") => {
  const t = createTranslator({
    locale,
    messages: catalogues[locale] as Messages,
    namespace: "prices.bulk.messages",
  }) as unknown as BulkMessageWords;
  return (message: BulkMessage | null | undefined) => (message ? describeBulkMessage(message, t) : message);
};
const english = wording("en") as (message: BulkMessage) => string;

// Rows as the preview classifies them; the file's header is line 1.
const changed = (line: number): PreviewRow => ({
  line,
  sku: `SKU-${line}`,
  type: "sell",
  amount: "12.5",
  currency: "BRL",
  value: 1250,
  normalizer: 100,
  kind: "changed",
  current: { id: `price-${line}`, value: 1000, currency: "BRL", normalizer: 100 },
});
const newPrice = (line: number): PreviewRow => ({
  line,
  sku: `NEW-${line}`,
  type: "list",
  amount: "7",
  currency: "BRL",
  value: 7000,
  normalizer: 1000,
  kind: "new",
  current: null,
});
const unchanged = (line: number): PreviewRow => ({
  line,
  sku: `SKU-${line}`,
  type: "sell",
  amount: "10",
  currency: "BRL",
  value: 1000,
  normalizer: 100,
  kind: "unchanged",
  current: { id: `price-${line}`, value: 1000, currency: "BRL", normalizer: 100 },
});
const invalid = (line: number): PreviewRow => ({
  line,
  sku: `BAD-${line}`,
  type: "promo",
  value: "10.00",
  currency: "BRL",
  reason: { code: "typeUnknown", quoted: '"promo"' },
  kind: "invalid",
});

function previewOf(rows: PreviewRow[]): BulkPreview {
  const counts = { changed: 0, new: 0, unchanged: 0, invalid: 0 };
  for (const row of rows) counts[row.kind]++;
  return { rows, counts, names: {}, complete: true, pricesSeen: rows.length };
}

/** `count` changed rows on lines 2, 3, … */
const changedRows = (count: number) => Array.from({ length: count }, (_, i) => changed(i + 2));

const applied = (row: { line: number }): AppliedRowResult => ({
  line: row.line,
  outcome: "applied",
  message: "Price imported",
  priceId: `id-${row.line}`,
});

function answer(
  results: AppliedRowResult[],
  extra: { pending?: ApplyPriceRow[]; resumeAfterMs?: number; slowDowns?: number; streak?: number } = {},
): ApplyPriceBatchState {
  return succeeded("", {
    results,
    pending: extra.pending ?? [],
    resumeAfterMs: extra.resumeAfterMs ?? 0,
    backoff: { rateLimitStreak: extra.streak ?? 0 },
    slowDowns: extra.slowDowns ?? 0,
  });
}

const reduce = (state: BulkUploadState, ...actions: BulkUploadAction[]) => actions.reduce(bulkUploadReducer, state);
const loaded = (rows: PreviewRow[]) =>
  reduce(initialBulkUploadState, { type: "preview_requested" }, { type: "preview_loaded", preview: previewOf(rows) });
const started = (rows: PreviewRow[]) => reduce(loaded(rows), { type: "apply_started" });

function uploadOf(state: BulkUploadState): Upload {
  if (!state.upload) throw new Error("no upload");
  return state.upload;
}
function sendStep(state: BulkUploadState) {
  const phase = uploadOf(state).phase;
  if (phase.name !== "applying" || phase.step.kind !== "send") throw new Error(`expected a batch to send, got ${JSON.stringify(phase)}`);
  return phase.step;
}
function waitStep(state: BulkUploadState) {
  const phase = uploadOf(state).phase;
  if (phase.name !== "applying" || phase.step.kind !== "wait") throw new Error(`expected a wait, got ${JSON.stringify(phase)}`);
  return phase.step;
}
const lines = (rows: readonly { line: number }[]) => rows.map((row) => row.line);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The current batch answered with every row applied. */
function applyBatch(state: BulkUploadState, now = 0): BulkUploadState {
  const step = sendStep(state);
  return bulkUploadReducer(state, { type: "batch_answered", stepId: step.id, answer: answer(step.batch.map(applied)), now });
}

describe("choosing and previewing a file", () => {
  it("refuses a missing, empty or too large file before uploading it", () => {
    expect(refuseUploadFile(null)).toEqual({ code: "chooseFile" });
    expect(english(refuseUploadFile(null)!)).toBe("Choose a CSV file.");
    expect(english(refuseUploadFile("text")!)).toBe("Choose a CSV file.");
    expect(english(refuseUploadFile(new File([], "prices.csv"))!)).toBe("Choose a CSV file.");
    expect(refuseUploadFile(new File([new Uint8Array(1_000_001)], "prices.csv"))).toEqual({ code: "fileTooLarge" });
    expect(english(refuseUploadFile(new File([new Uint8Array(1_000_001)], "prices.csv"))!)).toBe(
      "The file is larger than 1 MB; split it into smaller files.",
    );
    expect(wording("pt-BR")({ code: "fileTooLarge" })).toBe("O arquivo tem mais de 1 MB; divida-o em arquivos menores.");
    expect(refuseUploadFile(new File([new Uint8Array(1_000_000)], "prices.csv"))).toBeNull();
  });

  it("a refused file shows why and leaves the file already previewed on screen", () => {
    const state = loaded(changedRows(2));
    const next = bulkUploadReducer(state, { type: "file_refused", message: { code: "chooseFile" } });
    expect(next.uploadError).toEqual({ message: { code: "chooseFile" } });
    expect(next.upload).toBe(state.upload);
    expect(next.previewing).toBe(false);
  });

  it("reads while the preview is made, then shows it ready to apply with the changed and new rows queued in file order", () => {
    const reading = bulkUploadReducer(
      { ...initialBulkUploadState, uploadError: { message: { code: "chooseFile" } } },
      { type: "preview_requested" },
    );
    expect(reading.previewing).toBe(true);
    expect(reading.uploadError).toEqual({ message: { code: "chooseFile" } });

    const rows = [invalid(2), changed(3), unchanged(4), newPrice(5), changed(6)];
    const state = bulkUploadReducer(reading, { type: "preview_loaded", preview: previewOf(rows) });
    expect(state.previewing).toBe(false);
    expect(state.uploadError).toBeNull();
    const upload = uploadOf(state);
    expect(upload.phase).toEqual({ name: "preview" });
    expect(upload.total).toBe(3);
    expect(upload.results.size).toBe(0);
    // Only what the platform's create takes, plus the line and the amount as read.
    expect(upload.queue).toEqual([
      { line: 3, sku: "SKU-3", type: "sell", value: 1250, currency: "BRL", normalizer: 100, amount: "12.5" },
      { line: 5, sku: "NEW-5", type: "list", value: 7000, currency: "BRL", normalizer: 1000, amount: "7" },
      { line: 6, sku: "SKU-6", type: "sell", value: 1250, currency: "BRL", normalizer: 100, amount: "12.5" },
    ]);
  });

  it("a failed preview removes the previous file and says why, with the platform's problem", () => {
    const state = reduce(
      loaded(changedRows(2)),
      { type: "preview_requested" },
      { type: "preview_failed", message: "Reconnect", problem: { kind: "reconnect" } },
    );
    // The action's sentence is already in the seller's language: shown as it came.
    expect(state).toMatchObject({
      previewing: false,
      upload: null,
      uploadError: { message: { code: "verbatim", text: "Reconnect" }, problem: { kind: "reconnect" } },
    });
    expect(english(state.uploadError!.message)).toBe("Reconnect");
  });

  it("a preview the dashboard did not answer says so", () => {
    const state = reduce(initialBulkUploadState, { type: "preview_requested" }, { type: "preview_unanswered" });
    expect(state).toMatchObject({ previewing: false, upload: null, uploadError: { message: { code: "previewUnanswered" } } });
    expect(english(state.uploadError!.message)).toBe("The preview could not be made: the dashboard did not answer. Try again.");
  });

  it("a new file starts over: results, slow-downs, the engine's backoff and the pause are cleared", () => {
    let state = started(changedRows(30));
    const step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: failed("Reconnect", {
        problem: { kind: "reconnect" },
        data: { results: step.batch.slice(0, 3).map(applied), pending: step.batch.slice(3) },
      }),
      now: 0,
    });
    expect(uploadOf(state).phase.name).toBe("paused");

    state = reduce(state, { type: "preview_requested" }, { type: "preview_loaded", preview: previewOf(changedRows(4)) });
    expect(uploadOf(state)).toMatchObject({ phase: { name: "preview" }, total: 4, slowDownCount: 0, backoff: { rateLimitStreak: 0 } });
    expect(uploadOf(state).results.size).toBe(0);
    expect(lines(uploadOf(state).queue)).toEqual([2, 3, 4, 5]);
  });
});

describe("applying", () => {
  it("sends the rows in batches of 25 with the engine's backoff, records each outcome and ends done", () => {
    let state = started(changedRows(60));
    const first = sendStep(state);
    expect(lines(first.batch)).toEqual(range(2, 26));
    expect(first.backoff).toEqual({ rateLimitStreak: 0 });
    expect(first.slowDown).toBeNull();

    state = applyBatch(state);
    const second = sendStep(state);
    expect(second.id).toBeGreaterThan(first.id);
    expect(lines(second.batch)).toEqual(range(27, 51));
    expect(uploadOf(state).results.size).toBe(25);

    state = applyBatch(state);
    expect(lines(sendStep(state).batch)).toEqual(range(52, 61));
    state = applyBatch(state);
    const upload = uploadOf(state);
    expect(upload.phase).toEqual({ name: "done" });
    expect(upload.queue).toEqual([]);
    expect(upload.results.size).toBe(60);
    expect(outcomeCounts(upload.results)).toEqual({ applied: 60, rejected: 0, failed: 0, held: 0, skipped: 0 });
    expect(slowDownOf(upload.phase)).toBeNull();
  });

  it("starts one run however often Apply is pressed, and only for a previewed or paused file", () => {
    const state = started(changedRows(3));
    expect(bulkUploadReducer(state, { type: "apply_started" })).toBe(state);
    expect(bulkUploadReducer(initialBulkUploadState, { type: "apply_started" })).toBe(initialBulkUploadState);
    const done = applyBatch(state);
    expect(uploadOf(done).phase.name).toBe("done");
    expect(bulkUploadReducer(done, { type: "apply_started" })).toBe(done);
  });

  it("records rejected and failed rows with their messages, and goes on with the next batch", () => {
    let state = started(changedRows(30));
    const step = sendStep(state);
    const results: AppliedRowResult[] = step.batch.map((row) =>
      row.line === 4
        ? { line: 4, outcome: "rejected", message: "A price had problems on import: sku: no SKU with this code", priceId: null }
        : row.line === 5
          ? { line: 5, outcome: "failed", message: "The marketplace answered HTTP 500 (after 4 attempts)", priceId: null }
          : applied(row),
    );
    state = bulkUploadReducer(state, { type: "batch_answered", stepId: step.id, answer: answer(results), now: 0 });
    const upload = uploadOf(state);
    expect(outcomeCounts(upload.results)).toEqual({ applied: 23, rejected: 1, failed: 1, held: 0, skipped: 0 });
    expect(upload.results.get(4)).toMatchObject({ outcome: "rejected", message: expect.stringContaining("no SKU") });
    expect(lines(sendStep(state).batch)).toEqual(range(27, 31));
  });

  it("keeps each result with its row: answers in any order land on their lines, and the results file lists every row in file order", () => {
    const rows = [changed(2), invalid(3), unchanged(4), newPrice(5), changed(6), changed(7)];
    let state = started(rows);
    const step = sendStep(state);
    expect(lines(step.batch)).toEqual([2, 5, 6, 7]);
    // Line 7 applied first, line 2 rejected; 5 and 6 still pending when the connection is lost.
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: failed("Your marketplace connection needs renewing.", {
        problem: { kind: "reconnect" },
        data: {
          results: [applied({ line: 7 }), { line: 2, outcome: "rejected", message: "Invalid price", priceId: null }],
          pending: step.batch.filter((row) => row.line === 5 || row.line === 6),
        },
      }),
      now: 0,
    });
    const upload = uploadOf(state);
    expect(upload.results.get(7)).toEqual(applied({ line: 7 }));
    expect(upload.results.get(2)?.outcome).toBe("rejected");
    expect(resultLines(upload, english)).toEqual([
      { line: 2, sku: "SKU-2", type: "sell", value: "12.5", currency: "BRL", outcome: "rejected", message: "Invalid price", priceId: null },
      {
        line: 3,
        sku: "BAD-3",
        type: "promo",
        value: "10.00",
        currency: "BRL",
        outcome: "invalid",
        message: 'unknown type "promo" (use list or sell)',
        priceId: null,
      },
      {
        line: 4,
        sku: "SKU-4",
        type: "sell",
        value: "10",
        currency: "BRL",
        outcome: "unchanged",
        message: "Same as the current price; not sent",
        priceId: "price-4",
      },
      {
        line: 5,
        sku: "NEW-5",
        type: "list",
        value: "7",
        currency: "BRL",
        outcome: "not_sent",
        message: "Not sent: the update was stopped before this row",
        priceId: null,
      },
      {
        line: 6,
        sku: "SKU-6",
        type: "sell",
        value: "12.5",
        currency: "BRL",
        outcome: "not_sent",
        message: "Not sent: the update was stopped before this row",
        priceId: null,
      },
      {
        line: 7,
        sku: "SKU-7",
        type: "sell",
        value: "12.5",
        currency: "BRL",
        outcome: "applied",
        message: "Price imported",
        priceId: "id-7",
      },
    ]);
    // In Portuguese, the dashboard's words change; the platform's stay as it sent them.
    expect(resultLines(upload, wording("pt-BR") as (message: BulkMessage) => string).map((line) => line.message)).toEqual([
      "Invalid price",
      'tipo desconhecido "promo" (use list ou sell)',
      "Igual ao preço atual; não enviada",
      "Não enviada: a atualização foi interrompida antes desta linha",
      "Não enviada: a atualização foi interrompida antes desta linha",
      "Price imported",
    ]);
  });

  it("never loses a row: the engine's pending rows, with their failures so far, and rows missing from the answer go first, in line order", () => {
    let state = started(changedRows(40));
    const step = sendStep(state);
    const row = (line: number) => step.batch.find((candidate) => candidate.line === line)!;
    // Line 9 is pending with one transient failure; line 5 has no outcome and is not pending either.
    const results = step.batch.filter((candidate) => candidate.line !== 5 && candidate.line !== 9).map(applied);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer(results, { pending: [{ ...row(9), transientFailures: 1 }] }),
      now: 0,
    });
    const next = sendStep(state);
    expect(lines(next.batch)).toEqual([5, 9, ...range(27, 41)]);
    expect(next.batch[0]).toEqual(row(5));
    expect(next.batch[1]).toEqual({ ...row(9), transientFailures: 1 });
    expect(uploadOf(state).results.size).toBe(23);
  });

  it("does not change the state it is given", () => {
    const state = started(changedRows(30));
    const before = structuredClone(state);
    applyBatch(state);
    bulkUploadReducer(state, { type: "batch_unanswered", stepId: sendStep(state).id, now: 0 });
    expect(state).toEqual(before);
  });
});

describe("rate limits", () => {
  it("counts down a wait the engine handed back, then sends the rest with the engine's backoff", () => {
    let state = started(changedRows(30));
    const step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer(step.batch.slice(0, 8).map(applied), { pending: step.batch.slice(8), resumeAfterMs: 12_000, slowDowns: 2, streak: 3 }),
      now: 1_000_000,
    });
    const wait = waitStep(state);
    expect(wait).toMatchObject({ until: 1_012_000, reason: "rate_limited" });
    expect(slowDownOf(uploadOf(state).phase)).toEqual({ until: 1_012_000, reason: "rate_limited" });
    expect(uploadOf(state).slowDownCount).toBe(2);

    state = bulkUploadReducer(state, { type: "wait_ended", stepId: wait.id });
    const next = sendStep(state);
    expect(lines(next.batch)).toEqual(range(10, 31));
    expect(next.backoff).toEqual({ rateLimitStreak: 3 });
    expect(slowDownOf(uploadOf(state).phase)).toEqual({ until: null, reason: "rate_limited" });

    // An answer without slow-downs clears the notice.
    state = applyBatch(state);
    expect(uploadOf(state).phase).toEqual({ name: "done" });
    expect(uploadOf(state).slowDownCount).toBe(2);
  });

  it("shows a slow-down the engine slept itself while the next batch is in flight, and counts it", () => {
    let state = started(changedRows(30));
    const step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer(step.batch.map(applied), { slowDowns: 1, streak: 1 }),
      now: 0,
    });
    expect(sendStep(state)).toMatchObject({ slowDown: { until: null, reason: "rate_limited" }, backoff: { rateLimitStreak: 1 } });
    expect(uploadOf(state).slowDownCount).toBe(1);

    state = applyBatch(state);
    expect(uploadOf(state).phase.name).toBe("done");
  });

  it("clears the notice when a batch after a slow-down needed none", () => {
    let state = started(changedRows(60));
    let step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer(step.batch.map(applied), { slowDowns: 1 }),
      now: 0,
    });
    state = applyBatch(state);
    step = sendStep(state);
    expect(step.slowDown).toBeNull();
    expect(uploadOf(state).slowDownCount).toBe(1);
  });

  it("'Send now' ends a rate-limit wait at once, and the wait's own timer then does nothing", () => {
    let state = started(changedRows(30));
    const step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer([], { pending: step.batch, resumeAfterMs: 30_000, slowDowns: 1, streak: 1 }),
      now: 0,
    });
    const wait = waitStep(state);

    state = bulkUploadReducer(state, { type: "wait_skipped" });
    const next = sendStep(state);
    expect(lines(next.batch)).toEqual(range(2, 26));
    expect(next.slowDown).toEqual({ until: null, reason: "rate_limited" });
    expect(bulkUploadReducer(state, { type: "wait_ended", stepId: wait.id })).toBe(state);
  });

  it("'Send now' does nothing when no rate-limit wait is running", () => {
    const sending = started(changedRows(3));
    expect(bulkUploadReducer(sending, { type: "wait_skipped" })).toBe(sending);
    const retrying = bulkUploadReducer(sending, { type: "batch_unanswered", stepId: sendStep(sending).id, now: 0 });
    expect(waitStep(retrying).reason).toBe("connection");
    expect(bulkUploadReducer(retrying, { type: "wait_skipped" })).toBe(retrying);
    expect(bulkUploadReducer(loaded(changedRows(3)), { type: "wait_skipped" }).upload?.phase).toEqual({ name: "preview" });
  });
});

describe("failures", () => {
  it("sends a batch that got no answer again after 2, 4, 8 and 16 s, then pauses with every row kept", () => {
    let state = started(changedRows(30));
    const batch = sendStep(state).batch;
    const waits: number[] = [];
    for (let failure = 1; failure < MAX_CALL_FAILURES; failure++) {
      const now = failure * 100_000;
      state = bulkUploadReducer(state, { type: "batch_unanswered", stepId: sendStep(state).id, now });
      const wait = waitStep(state);
      expect(wait.reason).toBe("connection");
      waits.push(wait.until - now);
      expect(slowDownOf(uploadOf(state).phase)).toEqual({ until: wait.until, reason: "connection" });
      state = bulkUploadReducer(state, { type: "wait_ended", stepId: wait.id });
      expect(sendStep(state).batch).toEqual(batch);
      // The notice keeps its (now past) time: it says "Retrying." while the batch is in flight.
      expect(sendStep(state).slowDown).toEqual({ until: wait.until, reason: "connection" });
    }
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000]);

    state = bulkUploadReducer(state, { type: "batch_unanswered", stepId: sendStep(state).id, now: 0 });
    const upload = uploadOf(state);
    expect(upload.phase).toEqual({ name: "paused", reason: { message: { code: "stoppedAnswering" } } });
    expect(english({ code: "stoppedAnswering" })).toBe(
      "The dashboard stopped answering. Your remaining rows are kept: resume when it is back.",
    );
    expect(slowDownOf(upload.phase)).toBeNull();
    expect(lines(upload.queue)).toEqual(range(2, 31));

    // Resume starts counting failures afresh.
    state = bulkUploadReducer(state, { type: "apply_started" });
    expect(sendStep(state)).toMatchObject({ batch, slowDown: null });
    state = bulkUploadReducer(state, { type: "batch_unanswered", stepId: sendStep(state).id, now: 0 });
    expect(waitStep(state).until).toBe(2_000);
  });

  it("an answer resets the count of calls without one", () => {
    let state = started(changedRows(60));
    for (let i = 0; i < 2; i++) {
      state = bulkUploadReducer(state, { type: "batch_unanswered", stepId: sendStep(state).id, now: 0 });
      state = bulkUploadReducer(state, { type: "wait_ended", stepId: waitStep(state).id });
    }
    state = applyBatch(state);
    expect(sendStep(state).slowDown).toBeNull();
    state = bulkUploadReducer(state, { type: "batch_unanswered", stepId: sendStep(state).id, now: 0 });
    expect(waitStep(state).until).toBe(2_000);
  });

  it("pauses on an error answer with its reason, keeps the rows done before it, and Resume sends the rest first", () => {
    let state = started(changedRows(60));
    let step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer(step.batch.map(applied), { streak: 2, slowDowns: 1 }),
      now: 0,
    });
    step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: failed("Your marketplace connection needs renewing.", {
        problem: { kind: "reconnect" },
        data: { results: step.batch.slice(0, 3).map(applied), pending: step.batch.slice(3) },
      }),
      now: 0,
    });
    const upload = uploadOf(state);
    expect(upload.phase).toEqual({
      name: "paused",
      reason: { message: { code: "verbatim", text: "Your marketplace connection needs renewing." }, problem: { kind: "reconnect" } },
    });
    expect(slowDownOf(upload.phase)).toBeNull();
    expect(upload.results.size).toBe(28);
    expect(upload.total - upload.results.size).toBe(32);
    expect(upload.slowDownCount).toBe(1);

    state = bulkUploadReducer(state, { type: "apply_started" });
    const resumed = sendStep(state);
    expect(lines(resumed.batch)).toEqual(range(30, 54));
    // The backoff of the last answer that had one.
    expect(resumed.backoff).toEqual({ rateLimitStreak: 2 });
  });

  it("Resume with no row left finishes at once", () => {
    let state = started(changedRows(3));
    const step = sendStep(state);
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: failed("The marketplace could not set prices.", { data: { results: step.batch.map(applied), pending: [] } }),
      now: 0,
    });
    expect(uploadOf(state).phase.name).toBe("paused");
    state = bulkUploadReducer(state, { type: "apply_started" });
    expect(uploadOf(state).phase).toEqual({ name: "done" });
  });
});

describe("answers that come too late", () => {
  it("drops an answer or a timer for a step that is no longer current", () => {
    const state = started(changedRows(60));
    const first = sendStep(state);
    const next = applyBatch(state);
    expect(bulkUploadReducer(next, { type: "batch_answered", stepId: first.id, answer: answer(first.batch.map(applied)), now: 0 })).toBe(
      next,
    );
    expect(bulkUploadReducer(next, { type: "batch_unanswered", stepId: first.id, now: 0 })).toBe(next);
    expect(bulkUploadReducer(next, { type: "wait_ended", stepId: first.id })).toBe(next);
  });

  it("a file previewed while another is applying replaces that run: its late answer and timer change nothing, and nothing is sent until Apply", () => {
    // Resume is on screen while a new preview is read; a run can be under way when it lands.
    let state = started(changedRows(30));
    const sending = sendStep(state);
    state = bulkUploadReducer(state, { type: "batch_unanswered", stepId: sending.id, now: 0 });
    const waiting = waitStep(state);
    state = bulkUploadReducer(state, { type: "wait_ended", stepId: waiting.id });
    const resent = sendStep(state);

    state = reduce(state, { type: "preview_requested" }, { type: "preview_loaded", preview: previewOf([changed(2), newPrice(3)]) });
    const replaced = state;
    expect(uploadOf(replaced).phase).toEqual({ name: "preview" });
    state = reduce(
      state,
      { type: "batch_answered", stepId: resent.id, answer: answer(resent.batch.map(applied)), now: 0 },
      { type: "batch_unanswered", stepId: resent.id, now: 0 },
      { type: "wait_ended", stepId: waiting.id },
      { type: "wait_skipped" },
    );
    expect(state).toBe(replaced);

    state = bulkUploadReducer(state, { type: "apply_started" });
    const step = sendStep(state);
    expect(step.id).toBeGreaterThan(resent.id);
    expect(lines(step.batch)).toEqual([2, 3]);
  });
});

describe("the price guard", () => {
  const held = (line: number, sku = `SKU-${line}`): PreviewRow => ({
    ...(changed(line) as Exclude<PreviewRow, { kind: "invalid" | "new" }>),
    sku,
    held: [{ code: "belowCost", type: "sell", cost: 2000 }],
  });

  it("does not queue a held row until its product is confirmed, and names it in the results as held", () => {
    const state = loaded([changed(2), held(3), held(4, "SKU-3"), changed(5)]);
    expect(lines(uploadOf(state).queue)).toEqual([2, 5]);
    expect(uploadOf(state).total).toBe(2);

    const results = resultLines(uploadOf(state), english, (reasons) => reasons.map((reason) => reason.code).join(", "));
    expect(results.map((line) => [line.line, line.outcome])).toEqual([
      [2, "not_sent"],
      [3, "held"],
      [4, "held"],
      [5, "not_sent"],
    ]);
    expect(results[1]!.message).toBe("Held back by the price guard and not confirmed; not sent: belowCost");
  });

  it("queues every held row of a product once it is confirmed, and drops them again when it is not", () => {
    const rows = [changed(2), held(3), held(4, "SKU-3"), held(5)];
    const confirmed = reduce(loaded(rows), { type: "confirmation_changed", skus: ["SKU-3"], confirmed: true });
    expect(lines(uploadOf(confirmed).queue)).toEqual([2, 3, 4]);
    expect([...uploadOf(confirmed).confirmed]).toEqual(["SKU-3"]);
    const withdrawn = reduce(confirmed, { type: "confirmation_changed", skus: ["SKU-3"], confirmed: false });
    expect(lines(uploadOf(withdrawn).queue)).toEqual([2]);
  });

  it("takes the confirmations a change of prices by product comes with", () => {
    const state = reduce(initialBulkUploadState, {
      type: "preview_loaded",
      preview: { ...previewOf([held(2), held(3)]), confirmed: ["SKU-2"] },
    });
    expect(lines(uploadOf(state).queue)).toEqual([2]);
  });

  it("settles what is sent once applying starts: a late change of confirmation changes nothing", () => {
    const state = reduce(loaded([changed(2), held(3)]), { type: "apply_started" });
    expect(reduce(state, { type: "confirmation_changed", skus: ["SKU-3"], confirmed: true })).toBe(state);
  });

  it("counts rows the server held on sending", () => {
    let state = started([changed(2), changed(3)]);
    const step = sendStep(state);
    const heldOnServer: AppliedRowResult = {
      line: 3,
      outcome: "held",
      message: "Below cost",
      priceId: null,
      reasons: [{ code: "belowCost", type: "sell", cost: 2000 }],
    };
    state = bulkUploadReducer(state, {
      type: "batch_answered",
      stepId: step.id,
      answer: answer([applied({ line: 2 }), heldOnServer]),
      now: 0,
    });
    expect(outcomeCounts(uploadOf(state).results)).toEqual({ applied: 1, rejected: 0, failed: 0, held: 1, skipped: 0 });
    expect(uploadOf(state).phase).toEqual({ name: "done" });
  });
});
