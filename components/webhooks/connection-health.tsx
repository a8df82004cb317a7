import Link from "next/link";
import { RefreshWhile } from "@/components/webhooks/refresh-while";
import type { ConnectionHealth } from "@/lib/data/connection-health";
import { formatDate } from "@/lib/format";

const when = (date: Date | null) => (date ? formatDate(date) : "never");

function backfillText(backfill: ConnectionHealth["backfill"]): string {
  const since = backfill.from ? ` updated since ${formatDate(backfill.from)}` : "";
  switch (backfill.state) {
    case "running":
      return `Copying your orders${since}: ${backfill.orders} so far…`;
    case "done":
      return `${backfill.orders} orders${since} copied${backfill.finishedAt ? ` (${when(backfill.finishedAt)})` : ""}.`;
    case "failed":
      return `Stopped after ${backfill.orders} orders; it resumes at the next reconciliation.`;
    default:
      return "Starts shortly after you connect.";
  }
}

/**
 * The seller's connection at a glance: when a notification last arrived, what waits, what is
 * dead, and what reconciliation found that no notification told (lib/sync/reconcile.ts).
 */
export function ConnectionHealthPanel({ health }: { health: ConnectionHealth }) {
  const facts: [string, React.ReactNode][] = [
    ["Last notification received", when(health.lastEventAt)],
    ["Events waiting to be processed", String(health.waiting)],
    [
      "Dead events",
      health.dead === 0 ? (
        "0"
      ) : (
        <Link href="/webhooks/events?processing=dead" className="font-medium text-red-700 hover:underline">
          {health.dead} — review and process again
        </Link>
      ),
    ],
    [
      "Last reconciliation",
      health.lastReconciledAt
        ? `${when(health.lastReconciledAt)}: ${health.lastRecovered === 0 ? "nothing missed" : `${health.lastRecovered} order change${health.lastRecovered === 1 ? "" : "s"} recovered`} (${health.recoveredTotal} in all)`
        : "not yet",
    ],
    ["Order mirror", backfillText(health.backfill)],
  ];
  if (health.lastError) facts.push(["Last reconciliation error", <span key="error" className="text-red-700">{health.lastError}</span>]);
  return (
    <section aria-labelledby="connection-health" className="rounded-lg border border-zinc-200 bg-white p-4">
      <RefreshWhile active={health.backfill.state === "running"} />
      <h2 id="connection-health" className="mb-3 text-base font-semibold">
        Connection health
      </h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
