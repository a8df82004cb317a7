import type { Metadata } from "next";
import { requireSeller } from "@/lib/auth/session";
import { deleteMyDataAction, disconnectAction } from "@/lib/actions/auth";
import { formatDate } from "@/lib/format";

export const metadata: Metadata = { title: "Settings" };


export default async function SettingsPage() {
  const seller = await requireSeller();
  const { connection } = seller;
  const granted = connection.scopesRequested.filter((scope) => !connection.scopesMissing.includes(scope));

  return (
    <section className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <div className="rounded-lg border border-zinc-200 bg-white p-6">
        <h2 className="text-lg font-medium">Marketplace connection</h2>
        <dl className="mt-4 grid grid-cols-[12rem_1fr] gap-y-3 text-sm">
          <dt className="text-zinc-500">Account</dt>
          <dd>
            {seller.name} <span className="text-zinc-500">({seller.email})</span>
          </dd>
          <dt className="text-zinc-500">Connected since</dt>
          <dd>
            <time dateTime={connection.connectedAt.toISOString()}>{formatDate(connection.connectedAt)}</time>
          </dd>
          <dt className="text-zinc-500">Status</dt>
          <dd>{connection.needsReconnect ? "Needs reconnecting" : "Active"}</dd>
          <dt className="text-zinc-500">Granted permissions</dt>
          <dd data-testid="granted-scopes">
            <ScopeList scopes={granted} />
            <p className="mt-1 text-xs text-zinc-500">
              The marketplace does not say which permissions it granted; a permission counts as missing once the
              marketplace refuses a request for lack of it.
            </p>
          </dd>
          <dt className="text-zinc-500">Missing permissions</dt>
          <dd data-testid="missing-scopes">
            {connection.scopesMissing.length > 0 ? <ScopeList scopes={connection.scopesMissing} /> : "None found"}
          </dd>
        </dl>
      </div>
      <form action={disconnectAction} className="rounded-lg border border-red-200 bg-white p-6">
        <h2 className="text-lg font-medium">Disconnect</h2>
        <p className="mt-1 text-sm text-zinc-600">
          Removes this dashboard&apos;s webhook callback URL at the marketplace, deletes the stored access token and
          signs you out.
        </p>
        <button type="submit" className="mt-4 rounded-md border border-red-300 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50">
          Disconnect marketplace account
        </button>
      </form>
      <form action={deleteMyDataAction} className="rounded-lg border border-red-200 bg-white p-6">
        <h2 className="text-lg font-medium">Delete my data</h2>
        <p className="mt-1 text-sm text-zinc-600">
          Disconnects, then deletes everything this dashboard keeps for you: the event log, the copies of your orders
          and prices, the SKU catalogue and every session. Your data on the marketplace is not touched.
        </p>
        <button type="submit" className="mt-4 rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800">
          Delete my data
        </button>
      </form>
    </section>
  );
}

function ScopeList({ scopes }: { scopes: string[] }) {
  return (
    <ul className="flex flex-wrap gap-2">
      {scopes.map((scope) => (
        <li key={scope} className="rounded bg-zinc-100 px-2 py-0.5 font-mono text-xs">
          {scope}
        </li>
      ))}
    </ul>
  );
}
