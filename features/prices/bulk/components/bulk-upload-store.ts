import { applyPriceBatchAction } from "@/features/prices/bulk/actions";
import { bulkUploadReducer, initialBulkUploadState } from "@/features/prices/bulk/bulk-upload-state";
import type { BulkUploadAction, BulkUploadState } from "@/features/prices/bulk/bulk-upload-state";

// The tab's bulk price upload, kept outside React so a run goes on while the seller opens other pages.
// State changes only through features/prices/bulk/bulk-upload-state.ts's reducer; this module performs the steps it asks for.

type Listener = () => void;

let state: BulkUploadState = initialBulkUploadState;
/** The shop whose upload this is: every batch is sent to it, whatever shop another tab opened. */
let owner: string | null = null;
const listeners = new Set<Listener>();
/** Each upload's run id: its batches' audit entries add up to one "bulk price change" entry. */
const runIds = new WeakMap<object, string>();
/** The last send step performed: a step is sent once, whatever re-renders or re-subscribes. */
let sentStepId = 0;
let wait: { stepId: number; timer: ReturnType<typeof setTimeout> } | null = null;

export const getBulkUploadState = () => state;
export const getServerBulkUploadState = () => initialBulkUploadState;

/**
 * The bulk page, shown to `seller`: an upload another account started in this tab is dropped
 * (its batches would be refused anyway).
 */
export function claimBulkUpload(shop: string) {
  if (owner === shop) return;
  owner = shop;
  if (state !== initialBulkUploadState) {
    state = initialBulkUploadState;
    for (const listener of listeners) listener();
    perform();
  }
}

export function subscribeToBulkUpload(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dispatchBulkUpload(action: BulkUploadAction) {
  const next = bulkUploadReducer(state, action);
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
  perform();
}

const confirmLeaving = (event: BeforeUnloadEvent) => event.preventDefault();

function perform() {
  const phase = state.upload?.phase;
  const step = phase?.name === "applying" ? phase.step : null;

  if (step?.kind === "send" && step.id !== sentStepId) {
    sentStepId = step.id;
    const { id, batch, backoff } = step;
    const upload = state.upload!;
    if (!runIds.has(upload.preview)) runIds.set(upload.preview, upload.preview.runId ?? crypto.randomUUID());
    const runId = runIds.get(upload.preview)!;
    const { source = "csv", undoOf = "" } = upload.preview;
    // An undo names the run it undoes; the server refuses one that names none.
    const run = source === "undo" ? { id: runId, source, undoOf } : { id: runId, source };
    // The server judges every row again; it sends a held one only for a product named here.
    const confirmed = [...new Set(batch.map((row) => row.sku))].filter((sku) => upload.confirmed.has(sku));
    applyPriceBatchAction(owner ?? "", batch, { backoff, run, confirmed }).then(
      (answer) => dispatchBulkUpload({ type: "batch_answered", stepId: id, answer, now: Date.now() }),
      () => dispatchBulkUpload({ type: "batch_unanswered", stepId: id, now: Date.now() }),
    );
  }

  if (wait && (step?.kind !== "wait" || step.id !== wait.stepId)) {
    clearTimeout(wait.timer);
    wait = null;
  }
  if (step?.kind === "wait" && !wait) {
    const { id, until } = step;
    wait = { stepId: id, timer: setTimeout(() => dispatchBulkUpload({ type: "wait_ended", stepId: id }), Math.max(0, until - Date.now())) };
  }

  if (typeof window !== "undefined") {
    if (step) window.addEventListener("beforeunload", confirmLeaving);
    else window.removeEventListener("beforeunload", confirmLeaving);
  }
}
