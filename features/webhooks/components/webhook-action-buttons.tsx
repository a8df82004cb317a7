"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { processAgainAction, processAllDeadAction, rotateReceiverAction } from "@/features/webhooks/actions";
import type { WebhookActionState } from "@/features/webhooks/actions";
import { useShopId } from "@/components/shop-link";

/** A one-button form running a webhook action, with its outcome beside it. */
function ActionButton({ run, label, pendingLabel }: { run: () => Promise<WebhookActionState>; label: string; pendingLabel: string }) {
  const [state, action, pending] = useActionState<WebhookActionState>(run, { status: "idle" });
  return (
    <form action={action} className="flex items-center gap-3">
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium disabled:opacity-50"
      >
        {pending ? pendingLabel : label}
      </button>
      {state.status !== "idle" ? (
        <span role="status" className={state.status === "error" ? "text-sm text-red-800" : "text-sm text-brand-700"}>
          {state.message}
        </span>
      ) : null}
    </form>
  );
}

export function ProcessAgainButton({ eventId }: { eventId: string }) {
  const t = useTranslations("webhooks.buttons");
  const shopId = useShopId() ?? "";
  return <ActionButton run={() => processAgainAction(shopId, eventId)} label={t("processAgain")} pendingLabel={t("processing")} />;
}

/** Queues every dead event of the seller again (each with a fresh budget of attempts). */
export function ProcessAllDeadButton() {
  const t = useTranslations("webhooks.buttons");
  const shopId = useShopId() ?? "";
  return <ActionButton run={() => processAllDeadAction(shopId)} label={t("processAllDead")} pendingLabel={t("queuing")} />;
}

/** Issues a new receiver URL (the old one stops working) and moves the platform's callback to it. */
export function RotateReceiverButton() {
  const t = useTranslations("webhooks.buttons");
  const shopId = useShopId() ?? "";
  return <ActionButton run={() => rotateReceiverAction(shopId)} label={t("rotate")} pendingLabel={t("rotating")} />;
}
