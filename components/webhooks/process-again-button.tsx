"use client";

import { useActionState } from "react";
import { processAgainAction } from "@/lib/actions/webhooks";
import type { WebhookActionState } from "@/lib/actions/webhooks";

export function ProcessAgainButton({ eventId }: { eventId: string }) {
  const [state, action, pending] = useActionState<WebhookActionState>(() => processAgainAction(eventId), { status: "idle" });
  return (
    <form action={action} className="flex items-center gap-3">
      <button type="submit" disabled={pending} className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium disabled:opacity-50">
        {pending ? "Processing…" : "Process again"}
      </button>
      {state.status !== "idle" ? (
        <span role="status" className={state.status === "error" ? "text-sm text-red-700" : "text-sm text-brand-700"}>
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
