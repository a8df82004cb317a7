"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useShopPath } from "@/components/shop-link";

type ExportState =
  { kind: "idle" } | { kind: "running"; rows: number } | { kind: "done"; rows: number } | { kind: "failed"; message: string };

/**
 * "Export CSV": every order of the list's current filter, read as the server streams it, with a
 * count of the orders received so far; the file is saved once it is whole (a stream that fails
 * midway saves nothing and says so).
 */
/** `query`: the list's URL state; the export ignores its paging. */
export function ExportOrdersButton({ query }: { query: string }) {
  const t = useTranslations("orders.export");
  const [state, setState] = useState<ExportState>({ kind: "idle" });
  const path = useShopPath();

  async function run() {
    setState({ kind: "running", rows: 0 });
    try {
      const response = await fetch(`/api${path("/orders/export")}${query ? `?${query}` : ""}`);
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        throw new Error(body?.error ?? `HTTP ${response.status}`);
      }
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        for (const byte of value) if (byte === 10) lines++;
        setState({ kind: "running", rows: Math.max(0, lines - 1) });
      }
      const rows = Math.max(0, lines - 1);
      const name =
        /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ??
        t("fileName", { day: new Date().toISOString().slice(0, 10) });
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "text/csv;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ kind: "done", rows });
    } catch (error) {
      setState({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <button
        type="button"
        onClick={() => void run()}
        disabled={state.kind === "running"}
        className="min-h-11 rounded-md border border-zinc-300 bg-white px-4 py-1.5 font-medium hover:bg-zinc-50 disabled:opacity-50 md:min-h-0 md:px-3"
      >
        {t("button")}
      </button>
      <span role="status" data-testid="export-status" className={state.kind === "failed" ? "text-red-800" : "text-zinc-600"}>
        {state.kind === "running"
          ? t("running", { count: state.rows })
          : state.kind === "done"
            ? t("done", { count: state.rows })
            : state.kind === "failed"
              ? t("failed", { message: state.message })
              : ""}
      </span>
    </div>
  );
}
