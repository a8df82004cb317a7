import { formatMoney } from "@/lib/format";
import type { AppliedRowResult } from "@/lib/actions/bulk-prices";
import type { PreviewRow } from "@/lib/prices/bulk-preview";

function money(value: number, currency: string, normalizer: number): string {
  try {
    return formatMoney({ value, currency, normalizer });
  } catch {
    return `${value}/${normalizer} ${currency}`;
  }
}

const OUTCOME_STYLE: Record<AppliedRowResult["outcome"], string> = {
  applied: "text-brand-700",
  rejected: "text-red-700",
  failed: "text-red-700",
};

/** Every row of the uploaded file with its preview and, once applying, its result. */
export function BulkPreviewTable({ rows, results, applying }: { rows: PreviewRow[]; results: ReadonlyMap<number, AppliedRowResult>; applying: boolean }) {
  return (
    <div className="max-h-[32rem] overflow-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-sm">
        <caption className="sr-only">Rows of the uploaded file</caption>
        <thead className="sticky top-0 bg-zinc-50 text-left text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Line</th>
            <th scope="col" className="px-3 py-2 font-medium">SKU</th>
            <th scope="col" className="px-3 py-2 font-medium">Type</th>
            <th scope="col" className="px-3 py-2 font-medium">Change</th>
            <th scope="col" className="px-3 py-2 font-medium">Preview</th>
            {applying ? <th scope="col" className="px-3 py-2 font-medium">Result</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {rows.map((row) => {
            const result = results.get(row.line);
            return (
              <tr key={row.line} data-line={row.line} data-kind={row.kind}>
                <td className="px-3 py-1.5 tabular-nums text-zinc-500">{row.line}</td>
                <td className="px-3 py-1.5 font-mono">{row.sku || <span className="text-zinc-400">(empty)</span>}</td>
                <td className="px-3 py-1.5">{row.type}</td>
                <td className="px-3 py-1.5 tabular-nums">
                  {row.kind === "invalid" ? (
                    <span className="text-zinc-500">
                      {row.value} {row.currency}
                    </span>
                  ) : row.kind === "new" ? (
                    <>
                      <span className="text-zinc-500">new price</span> → {money(row.value, row.currency, row.normalizer)}
                    </>
                  ) : row.kind === "changed" ? (
                    <>
                      {money(row.current.value, row.current.currency, row.current.normalizer)} → {money(row.value, row.currency, row.normalizer)}
                    </>
                  ) : (
                    money(row.value, row.currency, row.normalizer)
                  )}
                </td>
                <td className="px-3 py-1.5">
                  {row.kind === "invalid" ? <span className="text-red-700">invalid: {row.reason}</span> : row.kind === "new" ? "new price" : row.kind}
                </td>
                {applying ? (
                  <td className="px-3 py-1.5" data-testid="row-result">
                    {row.kind === "invalid" ? (
                      <span className="text-red-700">invalid</span>
                    ) : row.kind === "unchanged" ? (
                      <span className="text-zinc-500">not sent</span>
                    ) : result ? (
                      <span className={OUTCOME_STYLE[result.outcome]} title={result.message}>
                        {result.outcome}
                        {result.outcome !== "applied" ? `: ${result.message}` : ""}
                      </span>
                    ) : (
                      <span className="text-zinc-400">pending</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
