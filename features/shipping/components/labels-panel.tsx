"use client";

import { orderLabel } from "@/lib/words/order-reference";
import { useTimeZone, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { ProblemNotice } from "@/components/platform/problem-notice";
import { ShopLink, useShopPath } from "@/components/shop-link";
import { cardTable } from "@/components/ui/card-table";
import { DEFAULT_TIME_ZONE } from "@/i18n/config";
import type { PlatformProblem } from "@/lib/platform-problem";
import { LabelsStreamReader } from "@/features/shipping/labels-wire";
import type { FailedLabel, LabelsEvent } from "@/features/shipping/labels-wire";
import { MAX_SELECTION_ORDERS, selectionSearchParams } from "@/features/shipping/shipping-params";
import type { ShippingSelection } from "@/features/shipping/shipping-params";
import { orderStatusWord } from "@/lib/words/order-words";

type Skipped = Extract<LabelsEvent, { type: "start" }>["skipped"];

type RunState =
  | { kind: "idle" }
  | { kind: "running"; done: number; total: number | null; failed: FailedLabel[]; skipped: Skipped; truncated: boolean }
  | { kind: "done"; total: number; pages: number; failed: FailedLabel[]; skipped: Skipped; truncated: boolean; url: string | null }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string; problem: PlatformProblem | null };

/**
 * One labels PDF run: asks the route handler (app/api/s/[shopId]/shipping/labels), follows its
 * stream of progress (features/shipping/labels-wire.ts), and keeps the merged PDF as a blob for the
 * download link. Leaving the page, or "Stop", ends the request, which stops the run on the server.
 */
function useLabelsRun() {
  const path = useShopPath();
  const t = useTranslations("shipping.labels");
  const [state, setState] = useState<RunState>({ kind: "idle" });
  const running = useRef<AbortController | null>(null);
  const blobUrl = useRef<string | null>(null);

  const forgetBlob = () => {
    if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    blobUrl.current = null;
  };
  useEffect(
    () => () => {
      running.current?.abort();
      forgetBlob();
    },
    [],
  );

  const start = useCallback(
    async (selection: ShippingSelection) => {
      running.current?.abort();
      forgetBlob();
      const controller = new AbortController();
      running.current = controller;
      setState({ kind: "running", done: 0, total: null, failed: [], skipped: [], truncated: false });
      try {
        const response = await fetch(`/api${path("/shipping/labels")}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(selection),
          signal: controller.signal,
        });
        if (!response.ok || !response.body) {
          const body = (await response.json().catch(() => null)) as { error?: string; problem?: PlatformProblem } | null;
          setState({ kind: "failed", message: body?.error ?? t("failed"), problem: body?.problem ?? null });
          return;
        }
        const reader = new LabelsStreamReader();
        const stream = response.body.getReader();
        // Declared wide: set inside the read loop, which the compiler does not follow into.
        let finished = null as Extract<LabelsEvent, { type: "done" }> | null;
        let latest: Extract<RunState, { kind: "running" }> = {
          kind: "running",
          done: 0,
          total: null,
          failed: [],
          skipped: [],
          truncated: false,
        };
        for (;;) {
          const { done, value } = await stream.read();
          if (done) break;
          for (const event of reader.push(value)) {
            if (event.type === "start") latest = { ...latest, total: event.total, skipped: event.skipped, truncated: event.truncated };
            else if (event.type === "progress")
              latest = { ...latest, done: event.done, total: event.total, failed: [...latest.failed, ...event.failed] };
            else if (event.type === "done") finished = event;
            else {
              setState({ kind: "failed", message: event.message, problem: null });
              return;
            }
          }
          if (!finished) setState(latest);
        }
        if (!finished) throw new Error("the stream ended early");
        const pdf = reader.pdf();
        if (finished.pdfBytes > 0 && !pdf) throw new Error("the PDF did not arrive whole");
        blobUrl.current = pdf ? URL.createObjectURL(new Blob([pdf as BlobPart], { type: "application/pdf" })) : null;
        setState({
          kind: "done",
          total: finished.total,
          pages: finished.pages,
          failed: finished.failed,
          skipped: latest.skipped,
          truncated: latest.truncated,
          url: blobUrl.current,
        });
      } catch {
        setState(controller.signal.aborted ? { kind: "cancelled" } : { kind: "failed", message: t("failed"), problem: null });
      } finally {
        if (running.current === controller) running.current = null;
      }
    },
    [path, t],
  );

  const cancel = useCallback(() => running.current?.abort(), []);
  const reset = useCallback(() => {
    running.current?.abort();
    forgetBlob();
    setState({ kind: "idle" });
  }, []);
  return { state, start, cancel, reset };
}

/** "Labels PDF": the button for the selection, then the run's progress, its download and what it left out. */
export function LabelsPanel({ selection, disabled }: { selection: ShippingSelection | null; disabled: boolean }) {
  const t = useTranslations("shipping.labels");
  const tSelection = useTranslations("shipping.selection");
  const { state: run, start, cancel, reset } = useLabelsRun();
  // A finished run speaks of the selection it was made for: once the seller selects other orders,
  // the panel offers a PDF of those instead of the last one's "ready".
  const selectionKey = selection ? selectionSearchParams(selection).toString() : null;
  const [runFor, setRunFor] = useState<string | null>(null);
  const state: RunState = run.kind !== "running" && runFor !== selectionKey ? { kind: "idle" } : run;
  const timeZone = useTimeZone() ?? DEFAULT_TIME_ZONE;
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

  return (
    <>
      <button
        type="button"
        disabled={disabled || !selection || state.kind === "running"}
        onClick={() => {
          if (!selection) return;
          setRunFor(selectionKey);
          void start(selection);
        }}
        className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-1.5 font-medium hover:bg-zinc-50 disabled:opacity-50 md:min-h-0 md:px-3"
      >
        {tSelection("labels")}
      </button>
      {state.kind === "idle" ? null : (
        <section
          aria-labelledby="labels-run-title"
          className="basis-full space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm"
          data-testid="labels-run"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="labels-run-title" className="font-semibold">
              {t("title")}
            </h2>
            {state.kind === "running" ? (
              <button type="button" onClick={cancel} className="min-h-11 rounded-md border border-zinc-300 px-3 md:min-h-0">
                {t("cancel")}
              </button>
            ) : (
              <button type="button" onClick={reset} className="min-h-11 rounded-md border border-zinc-300 px-3 md:min-h-0">
                {t("close")}
              </button>
            )}
          </div>
          <RunBody state={state} fileName={t("fileName", { day })} />
        </section>
      )}
    </>
  );
}

function RunBody({ state, fileName }: { state: Exclude<RunState, { kind: "idle" }>; fileName: string }) {
  const t = useTranslations("shipping.labels");
  if (state.kind === "cancelled") return <p role="status">{t("cancelled")}</p>;
  if (state.kind === "failed") {
    return state.problem ? (
      <ProblemNotice problem={state.problem} feature="yourOrders" />
    ) : (
      <p role="alert" className="text-red-800">
        {state.message}
      </p>
    );
  }
  return (
    <div className="space-y-3">
      {state.kind === "running" ? (
        state.total === null ? (
          <p role="status">{t("starting")}</p>
        ) : (
          <div className="space-y-1">
            <progress
              value={state.done}
              max={Math.max(1, state.total)}
              aria-label={t("progressLabel")}
              className="h-2 w-full accent-brand-700"
            />
            <p role="status" data-testid="labels-progress">
              {t("progress", { done: state.done, total: state.total })}
            </p>
          </div>
        )
      ) : (
        <div role="status" className="space-y-2">
          {state.url ? (
            <>
              <p>{t("ready", { pages: state.pages })}</p>
              <a
                href={state.url}
                download={fileName}
                className="inline-flex min-h-11 items-center rounded-md bg-brand-700 px-4 font-medium text-white hover:bg-brand-900 md:min-h-9"
              >
                {t("download")}
              </a>
            </>
          ) : (
            <p>{state.total === 0 ? t("noParcels") : t("noPdf")}</p>
          )}
        </div>
      )}
      {state.truncated ? <p className="text-zinc-700">{t("truncated", { max: MAX_SELECTION_ORDERS })}</p> : null}
      {state.failed.length > 0 ? <FailedLabels failed={state.failed} /> : null}
      {state.skipped.length > 0 ? <SkippedOrders skipped={state.skipped} /> : null}
    </div>
  );
}

/** The labels left out of the PDF: which order and parcel (by its tracking number), and why, in words. */
function FailedLabels({ failed }: { failed: FailedLabel[] }) {
  const t = useTranslations("shipping.labels");
  return (
    <div className="space-y-2" data-testid="failed-labels">
      <h3 className="font-medium text-red-900">{t("failedTitle", { count: failed.length })}</h3>
      <div className={cardTable.frame}>
        <table className={cardTable.table}>
          <caption className="sr-only">{t("failedCaption")}</caption>
          <thead className={cardTable.head}>
            <tr>
              {(["order", "tracking", "reason"] as const).map((column) => (
                <th key={column} scope="col" className={cardTable.headCell}>
                  {t(`columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={cardTable.body}>
            {failed.map((label) => (
              <tr key={label.deliveryId} className={cardTable.row} data-testid="failed-label">
                <td className={`${cardTable.cell} ${cardTable.pad} col-span-2 tabular-nums`}>
                  <ShopLink
                    href={`/orders/${label.orderId}`}
                    className="inline-flex min-h-11 items-center text-brand-700 hover:underline md:min-h-0"
                  >
                    {orderLabel({ id: label.orderId, reference: label.orderReference })}
                  </ShopLink>
                </td>
                <td className={`${cardTable.labelled} ${cardTable.pad} font-mono text-xs`} data-label={t("columns.tracking")}>
                  {label.trackingNumber || "—"}
                </td>
                <td className={`${cardTable.cell} ${cardTable.pad} col-span-2`}>
                  {t(`reasons.${label.reason}`, { status: label.status ?? "?" })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function SkippedOrders({ skipped }: { skipped: Skipped }) {
  const t = useTranslations("shipping.labels");
  const words = useTranslations("words");
  return (
    <div className="space-y-1" data-testid="skipped-orders">
      <h3 className="font-medium">{t("skippedTitle", { count: skipped.length })}</h3>
      <ul className="list-disc space-y-1 pl-5">
        {skipped.map((order) => (
          <li key={order.id}>
            <ShopLink href={`/orders/${order.id}`} className="text-brand-700 tabular-nums hover:underline">
              {orderLabel(order)}
            </ShopLink>
            {": "}
            {order.reason === "not_approved"
              ? t("skipped.not_approved", { status: orderStatusWord(words, order.status ?? "") })
              : t(`skipped.${order.reason}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
