"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useChoiceBeforeHydration } from "@/components/ui/use-url-state";
import { isoToLocal, localToIso } from "@/lib/datetime-local";
import type { ChoicesFilter, FilterDefinition, MessageKey } from "@/lib/tables/table-params";

// A table's filter form, rendered from its filter definitions (lib/tables/table-params.ts):
// texts, drop-downs and date ranges apply with "Apply filters"; a group of choices applies at
// once. "Clear" empties every filter of the table. A new URL remounts the form with its state
// (the caller keys it by the query string). Labels are message keys, translated here.

type Changes = Record<string, string | null>;

const inputClass = "min-h-11 w-full min-w-0 rounded-md border border-zinc-300 px-2 py-1 md:min-h-0";

export function TableFilters({
  filters,
  state,
  update,
  className,
  submitLabel = "common.table.applyFilters",
}: {
  filters: Record<string, FilterDefinition>;
  /** The current values, from the URL. */
  state: Record<string, unknown>;
  update: (changes: Changes) => void;
  className: string;
  /** A message key, like the filters' labels. */
  submitLabel?: MessageKey;
}) {
  const word = useWord();
  const entries = Object.entries(filters);
  return (
    // Function actions, not onSubmit: React replays a form action submitted before the page's
    // scripts ran (components/ui/action-button.tsx), with the fields as they were then.
    <form
      className={className}
      action={(form) => {
        const changes: Changes = {};
        for (const [key, filter] of entries) {
          const text = String(form.get(key) ?? "");
          if (filter.kind === "text") changes[key] = text.trim();
          else if (filter.kind === "select") changes[key] = text;
          else if (filter.kind === "instant") changes[key] = localToIso(text);
        }
        update(changes);
      }}
    >
      {entries.map(([key, filter]) => {
        const value = state[key];
        switch (filter.kind) {
          case "choices":
            return (
              <Choices
                key={key}
                name={key}
                filter={filter}
                word={word}
                selected={Array.isArray(value) ? (value as string[]) : []}
                onChange={(chosen) => update({ [key]: chosen.join(",") })}
              />
            );
          case "select":
            return (
              <label key={key} className="flex flex-col gap-1">
                {word(filter.label)}
                <select name={key} defaultValue={typeof value === "string" ? value : ""} className={inputClass}>
                  <option value="">{word(filter.emptyLabel)}</option>
                  {filter.options.map((option) => (
                    <option key={option} value={option}>
                      {optionWord(word, filter.optionLabels, option)}
                    </option>
                  ))}
                </select>
              </label>
            );
          case "instant":
            return (
              <label key={key} className="flex flex-col gap-1">
                {word(filter.label)}
                <input
                  type="datetime-local"
                  name={key}
                  defaultValue={isoToLocal(typeof value === "string" ? value : undefined)}
                  className={inputClass}
                />
              </label>
            );
          case "text":
            return (
              <label key={key} className="flex flex-col gap-1">
                {word(filter.label)}
                <input
                  name={key}
                  defaultValue={typeof value === "string" ? value : ""}
                  placeholder={filter.placeholder ? word(filter.placeholder) : undefined}
                  className={`${inputClass} ${filter.mono ? "font-mono" : ""}`}
                />
              </label>
            );
        }
      })}
      <div className="col-span-full flex gap-2">
        <button type="submit" className="min-h-11 rounded-md bg-brand-700 px-4 py-1.5 font-medium text-white md:min-h-0 md:px-3">
          {word(submitLabel)}
        </button>
        <button
          type="submit"
          className="min-h-11 rounded-md border border-zinc-300 px-4 py-1.5 md:min-h-0 md:px-3"
          formAction={() => update(Object.fromEntries(entries.map(([key]) => [key, null])))}
        >
          {word("common.table.clear")}
        </button>
      </div>
    </form>
  );
}

/**
 * Checkboxes: several at once. The boxes answer the click at once (local state) while the URL,
 * the source of truth, catches up; a new URL remounts them with its state.
 */
function Choices({
  name,
  filter,
  word,
  selected,
  onChange,
}: {
  name: string;
  filter: ChoicesFilter;
  word: Word;
  selected: readonly string[];
  onChange: (chosen: string[]) => void;
}) {
  const [checked, setChecked] = useState(() => new Set(selected));
  const group = useChoiceBeforeHydration<HTMLFieldSetElement>((fieldset) =>
    onChange([...fieldset.querySelectorAll<HTMLInputElement>("input:checked")].map((box) => box.value)),
  );
  return (
    <fieldset ref={group} className="col-span-full">
      <legend className="mb-1">{word(filter.label)}</legend>
      <div className="flex flex-wrap gap-3">
        {filter.options.map((option) => (
          <label key={option} className="flex min-h-11 items-center gap-1.5 md:min-h-0">
            <input
              type="checkbox"
              name={name}
              value={option}
              checked={checked.has(option)}
              onChange={(event) => {
                const next = new Set(checked);
                if (event.target.checked) next.add(option);
                else next.delete(option);
                setChecked(next);
                onChange(filter.options.filter((candidate) => next.has(candidate)));
              }}
            />
            {optionWord(word, filter.optionLabels, option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

type Word = (key: MessageKey) => string;

/**
 * Translates a filter definition's key. Keys are data (lib/tables/table-params.ts), so next-intl's
 * typed keys cannot check them here; lib/tables/filter-labels.test.ts does.
 */
function useWord(): Word {
  const t = useTranslations();
  return (key) => t(key as Parameters<typeof t>[0]);
}

const optionWord = (word: Word, prefix: MessageKey | undefined, option: string) => (prefix ? word(`${prefix}.${option}`) : option);
