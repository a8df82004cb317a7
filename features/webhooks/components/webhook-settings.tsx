"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import type { ReactNode } from "react";
import { updateWebhookSettingsAction } from "@/features/webhooks/actions";
import type { WebhookActionState } from "@/features/webhooks/actions";
import { useShopId } from "@/components/shop-link";

/**
 * Where the marketplace sends notifications, in words (this dashboard, another address, none), with
 * what each button does; the addresses themselves and the rest are in the folded advanced part
 * (`advanced`: what the page adds there, such as changing the receiving address).
 */
export function WebhookSettings({
  currentUrl,
  receiverUrl,
  advanced,
}: {
  currentUrl: string | null;
  receiverUrl: string;
  advanced?: ReactNode;
}) {
  const t = useTranslations("webhooks.settings");
  const [state, action, pending] = useActionState<WebhookActionState, FormData>(updateWebhookSettingsAction.bind(null, useShopId() ?? ""), {
    status: "idle",
  });
  const pointsHere = currentUrl === receiverUrl;
  const urlError = state.status === "error" ? state.fieldErrors.url?.[0] : undefined;

  return (
    <div className="space-y-6">
      <form action={action} className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6">
        <h2 className="text-lg font-medium">{t("callbackUrl")}</h2>
        <p className="mt-2 text-sm" data-testid="current-webhook-url">
          {pointsHere ? (
            <span className="rounded bg-brand-100 px-2 py-0.5 font-medium text-brand-900">{t("thisDashboard")}</span>
          ) : currentUrl ? (
            <code className="break-all font-mono">{currentUrl}</code>
          ) : (
            <span className="text-zinc-600">{t("none")}</span>
          )}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <button
            type="submit"
            name="intent"
            value="use-dashboard"
            disabled={pending || pointsHere}
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-50"
          >
            {t("useDashboard")}
          </button>
          {currentUrl ? (
            <button
              type="submit"
              name="intent"
              value="remove"
              disabled={pending}
              className="rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-50"
            >
              {t("remove")}
            </button>
          ) : null}
        </div>
        {currentUrl ? <p className="mt-3 text-sm text-zinc-600">{t("removeHelp")}</p> : null}
      </form>

      <details className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6" data-technical data-testid="webhooks-advanced">
        <summary className="cursor-pointer font-medium">{t("advanced")}</summary>
        <div className="mt-4 space-y-6">
          <p className="text-sm text-zinc-600">
            {t.rich("receivesAt", { url: receiverUrl, code: (chunks) => <code className="break-all font-mono">{chunks}</code> })}
          </p>
          <form action={action} noValidate>
            <input type="hidden" name="intent" value="set-custom" />
            <label htmlFor="webhook-url" className="text-lg font-medium">
              {t("otherUrl")}
            </label>
            <p className="mt-1 text-sm text-zinc-600">{t("otherUrlHelp")}</p>
            <div className="mt-3 flex flex-col gap-3 sm:flex-row">
              <input
                id="webhook-url"
                name="url"
                type="url"
                required
                // React resets a form after its action; a failed attempt's URL comes back in the state.
                defaultValue={state.status === "error" ? state.data?.url : undefined}
                key={state.status === "idle" ? "idle" : String(state.at)}
                placeholder="https://example.com/webhooks"
                aria-invalid={!!urlError}
                aria-describedby="webhook-url-error"
                className="w-full rounded-md border border-zinc-300 px-3 py-2 text-sm"
              />
              <button
                type="submit"
                disabled={pending}
                className="shrink-0 rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-50 disabled:opacity-50"
              >
                {t("setUrl")}
              </button>
            </div>
            <p id="webhook-url-error" className="mt-2 text-sm text-red-800">
              {urlError}
            </p>
          </form>
          {advanced}
        </div>
      </details>

      <p
        data-testid="webhook-message"
        role={state.status === "error" ? "alert" : "status"}
        className={state.status === "error" ? "text-sm text-red-800" : "text-sm text-brand-700"}
      >
        {pending ? t("saving") : state.status === "idle" ? "" : state.message}
      </p>
    </div>
  );
}
