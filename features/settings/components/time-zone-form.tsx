"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { idle } from "@/lib/action-state";
import { setTimeZoneAction } from "@/features/settings/actions";
import { useShopId } from "@/components/shop-link";

/** Settings → time zone: Brazil's zones first (the sellers are Brazilian), then every other one. */
/** Zones are offered by name (lib/words/time-zone-words.ts); the value submitted is the IANA id. */
type ZoneChoice = { value: string; label: string };

export function TimeZoneForm({ current, brazilian, others }: { current: string; brazilian: ZoneChoice[]; others: ZoneChoice[] }) {
  const t = useTranslations("settings.timeZone");
  const [state, action, pending] = useActionState(setTimeZoneAction.bind(null, useShopId() ?? ""), idle);
  const error = state.status === "error" ? state.fieldErrors.timeZone?.[0] : undefined;
  return (
    <form action={action} className="rounded-lg border border-zinc-200 bg-white p-6">
      <h2 className="text-lg font-medium">{t("title")}</h2>
      <p className="mt-1 text-sm text-zinc-600">{t("help")}</p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <label className="w-full min-w-0 text-sm sm:w-auto">
          <span className="block text-zinc-700">{t("label")}</span>
          <select
            name="timeZone"
            defaultValue={current}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "time-zone-error" : undefined}
            className="mt-1 w-full max-w-full rounded-md border border-zinc-300 px-3 py-2 sm:w-auto"
          >
            <optgroup label={t("brazil")}>
              {brazilian.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </optgroup>
            <optgroup label={t("others")}>
              {others.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-900 disabled:opacity-60"
        >
          {t("save")}
        </button>
      </div>
      {error ? (
        <p id="time-zone-error" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {state.status === "success" ? (
        <p role="status" className="mt-2 text-sm text-green-800">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
