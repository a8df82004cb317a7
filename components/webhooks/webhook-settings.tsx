"use client";

import { useActionState } from "react";
import {
  removeWebhookUrlAction,
  setCustomWebhookUrlAction,
  pointWebhooksToDashboardAction,
} from "@/lib/actions/webhooks";
import type { WebhookActionState } from "@/lib/actions/webhooks";

const idle: WebhookActionState = { status: "idle" };

export function WebhookSettings({ currentUrl, receiverUrl }: { currentUrl: string | null; receiverUrl: string }) {
  const [dashboardState, pointToDashboard, dashboardPending] = useActionState(async () => pointWebhooksToDashboardAction(), idle);
  const [customState, setCustom, customPending] = useActionState(setCustomWebhookUrlAction, idle);
  const [removeState, remove, removePending] = useActionState(async () => removeWebhookUrlAction(), idle);
  const latest = [dashboardState, customState, removeState].find(
    (state): state is Exclude<WebhookActionState, { status: "idle" }> => state.status !== "idle",
  );
  const pointsHere = currentUrl === receiverUrl;

  return (
    <div className="space-y-6">
      <div className="rounded-lg border border-zinc-200 bg-white p-6">
        <h2 className="text-lg font-medium">Callback URL at the marketplace</h2>
        <p className="mt-2 text-sm" data-testid="current-webhook-url">
          {currentUrl ? (
            <>
              <code className="break-all font-mono">{currentUrl}</code>
              {pointsHere ? <span className="ml-2 rounded bg-brand-100 px-2 py-0.5 text-xs text-brand-900">this dashboard</span> : null}
            </>
          ) : (
            <span className="text-zinc-500">None: the marketplace sends no notifications.</span>
          )}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <form action={pointToDashboard}>
            <button
              type="submit"
              disabled={dashboardPending || pointsHere}
              className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
            >
              {dashboardPending ? "Saving…" : "Use this dashboard"}
            </button>
          </form>
          {currentUrl ? (
            <form action={remove}>
              <button
                type="submit"
                disabled={removePending}
                className="rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-50"
              >
                {removePending ? "Removing…" : "Remove"}
              </button>
            </form>
          ) : null}
        </div>
        <p className="mt-3 text-xs text-zinc-500">
          This dashboard receives at <code className="break-all font-mono">{receiverUrl}</code>
        </p>
      </div>

      <form action={setCustom} className="rounded-lg border border-zinc-200 bg-white p-6" noValidate>
        <label htmlFor="webhook-url" className="text-lg font-medium">
          Use another URL
        </label>
        <p className="mt-1 text-sm text-zinc-600">Point the marketplace at your own receiver. HTTPS is recommended.</p>
        <div className="mt-3 flex gap-3">
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            placeholder="https://example.com/webhooks"
            aria-invalid={customState.status === "error" && !!customState.fieldErrors?.url}
            aria-describedby="webhook-url-error"
            className="w-full rounded-md border border-zinc-300 px-3 py-2 text-sm"
          />
          <button
            type="submit"
            disabled={customPending}
            className="shrink-0 rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-50"
          >
            {customPending ? "Saving…" : "Set URL"}
          </button>
        </div>
        <p id="webhook-url-error" className="mt-2 text-sm text-red-700">
          {customState.status === "error" ? customState.fieldErrors?.url?.[0] : null}
        </p>
      </form>

      {latest ? (
        <p role={latest.status === "error" ? "alert" : "status"} className={latest.status === "error" ? "text-sm text-red-700" : "text-sm text-brand-700"}>
          {latest.message}
        </p>
      ) : null}
    </div>
  );
}
