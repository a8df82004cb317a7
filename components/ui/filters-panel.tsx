"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { ReactNode } from "react";

/** How many of `keys` hold a value in a table's URL state: what the folded panel's button counts. */
export function activeFilterCount(state: Record<string, unknown>, keys: readonly string[]): number {
  return keys.filter((key) => {
    const value = state[key];
    return Array.isArray(value) ? value.length > 0 : typeof value === "string" ? value !== "" : value != null;
  }).length;
}

/**
 * A table's filter form, folded on a phone behind a button that says how many filters are on (the
 * first screen stays for the rows); always open from `md` up.
 */
export function FiltersPanel({ active, children }: { active: number; children: ReactNode }) {
  const t = useTranslations("common.table");
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="space-y-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex min-h-11 items-center gap-2 rounded-md border border-zinc-300 bg-white px-4 text-sm font-medium md:hidden"
      >
        {t("filters", { count: active })}
        <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      <div id={id} className={open ? "block" : "hidden md:block"}>
        {children}
      </div>
    </div>
  );
}
