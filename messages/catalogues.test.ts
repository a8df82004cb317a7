import { readdirSync } from "node:fs";
import { join } from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/i18n/config";
import { catalogues } from "@/messages";

// Every key in both languages, with the same placeholders and tags, and every message valid ICU:
// a key missing in Portuguese would show the seller its raw name, a placeholder missing in one
// language would drop a number from the sentence.

type Tree = { [key: string]: string | Tree };

function flatten(tree: unknown, prefix = ""): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree as Tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") entries.set(path, value);
    else for (const [inner, text] of flatten(value, path)) entries.set(inner, text);
  }
  return entries;
}

/** The names a message's ICU syntax uses: arguments ({count}, {n, plural, …}) and tags (<b>…</b>). */
function placeholders(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]) => {
    for (const element of elements as {
      type: number;
      value?: string;
      options?: Record<string, { value: unknown[] }>;
      children?: unknown[];
    }[]) {
      // Types 1-8 name something (argument, number, date, time, select, plural, pound, tag); 0 is text.
      if (element.type !== 0 && element.type !== 7 && element.value) names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, locale, undefined, { ignoreTag: false }).getAst());
  return [...names].sort();
}

const flat = Object.fromEntries(LOCALES.map((locale) => [locale, flatten(catalogues[locale])])) as Record<
  (typeof LOCALES)[number],
  Map<string, string>
>;

describe("message catalogues", () => {
  it("holds every key in every language", () => {
    for (const locale of LOCALES) {
      for (const other of LOCALES) {
        const missing = [...flat[other].keys()].filter((key) => !flat[locale].has(key));
        expect(missing, `keys of ${other} missing in ${locale}`).toEqual([]);
      }
    }
  });

  it("uses the same placeholders and tags in every language, in valid ICU syntax", () => {
    for (const [key, english] of flat.en) {
      const portuguese = flat["pt-BR"].get(key);
      if (portuguese === undefined) continue; // reported above
      expect(placeholders(portuguese, "pt-BR"), `placeholders of ${key}`).toEqual(placeholders(english, "en"));
    }
  });

  it("loads every catalogue file there is (a new area's file cannot be forgotten in messages/index.ts)", () => {
    for (const locale of LOCALES) {
      const files = readdirSync(join(import.meta.dirname, locale))
        .map((file) => file.replace(/\.json$/, ""))
        .sort();
      expect(files).toEqual(Object.keys(catalogues[locale]).sort());
    }
  });

  it("has words in every area", () => {
    for (const [area, tree] of Object.entries(catalogues.en)) expect(flatten(tree).size, area).toBeGreaterThan(0);
  });

  it("calls each role by one name wherever it is named: the header, the team page, the invite and the audit log", () => {
    for (const locale of LOCALES) {
      const words = catalogues[locale] as unknown as Record<string, { roles: Record<string, string | { name: string }> }>;
      for (const role of ["owner", "manager", "operations", "viewer"]) {
        const names = ["shell", "members", "people", "audit"].map((area) => {
          const name = words[area]!.roles[role]!;
          return (typeof name === "string" ? name : name.name).toLocaleLowerCase(locale);
        });
        expect(new Set(names), `${locale} ${role}: ${names.join(", ")}`).toHaveProperty("size", 1);
      }
    }
  });
});
