import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_WORDS, pickWords } from "@/i18n/client-words";
import type { WordsLayout } from "@/i18n/client-words";
import { SourceGraph } from "@/i18n/client-words-scan";
import { LOCALES } from "@/i18n/config";
import { ordersTable } from "@/features/orders/order-params";
import { pricesTable } from "@/features/prices/price-params";
import { shippingTable } from "@/features/shipping/shipping-params";
import { skuCatalogueTable } from "@/features/skus/catalogue-params";
import { eventsTable } from "@/features/webhooks/events/event-params";
import { filterLabelKeys } from "@/lib/tables/filter-labels";
import type { FilterDefinition } from "@/lib/tables/table-params";
import { catalogues } from "@/messages";

const ROOT = process.cwd();
const graph = new SourceGraph(ROOT);

// The tables' filter forms name their words by key (useTranslations() without a namespace).
const TABLE_PARAMS: Record<string, { filters: Record<string, FilterDefinition> }> = {
  "features/orders/order-params.ts": ordersTable,
  "features/prices/price-params.ts": pricesTable,
  "features/shipping/shipping-params.ts": shippingTable,
  "features/skus/catalogue-params.ts": skuCatalogueTable,
  "features/webhooks/events/event-params.ts": eventsTable,
};

/** The layout whose words a route file's client components get: the nearest listed one at or above its folder. */
function wordsLayoutOf(routeFile: string): WordsLayout {
  let dir = path.relative(path.join(ROOT, "app"), path.dirname(routeFile)).split(path.sep).join("/");
  for (;;) {
    if (dir in CLIENT_WORDS) return dir as WordsLayout;
    if (dir === "") throw new Error(`no words for ${routeFile}`);
    dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
  }
}

const covers = (paths: readonly string[], key: string) => paths.some((given) => key === given || key.startsWith(`${given}.`));

/** Every route file's needs: the namespaces its client components read, and the filter keys of the tables it shows. */
const needs = graph.routeFiles().map((file) => {
  const namespaces = graph.clientNamespaces(file);
  const byKey = namespaces.has("")
    ? [...graph.clientClosure(file)].flatMap((imported) => {
        const table = TABLE_PARAMS[path.relative(ROOT, imported)];
        return table ? Object.values(table.filters).flatMap(filterLabelKeys) : [];
      })
    : [];
  return { file: path.relative(ROOT, file), layout: wordsLayoutOf(file), namespaces, byKey };
});

describe("the words given to client components", () => {
  it("cover every namespace a route's client components read, under the layout that gives them", () => {
    expect(needs.length).toBeGreaterThan(20);
    for (const { file, layout, namespaces, byKey } of needs) {
      for (const [namespace, readers] of namespaces) {
        if (namespace === "") continue;
        expect(covers(CLIENT_WORDS[layout], namespace), `${file}: "${namespace}" (read by ${readers.join(", ")}) under "${layout}"`).toBe(
          true,
        );
      }
      for (const key of byKey) expect(covers(CLIENT_WORDS[layout], key), `${file}: the filter word "${key}" under "${layout}"`).toBe(true);
    }
  });

  it("name nothing their part of the app does not read", () => {
    for (const [layout, paths] of Object.entries(CLIENT_WORDS)) {
      const read = needs.filter((need) => need.layout === layout).flatMap((need) => [...need.namespaces.keys(), ...need.byKey]);
      for (const given of paths) {
        expect(
          read.some((key) => key === given || key.startsWith(`${given}.`)),
          `"${given}" under "${layout}"`,
        ).toBe(true);
      }
    }
  });

  it("are found in every language's catalogue", () => {
    for (const locale of LOCALES) {
      for (const paths of Object.values(CLIENT_WORDS)) {
        const picked = pickWords(catalogues[locale] as Record<string, unknown>, paths);
        for (const dotted of paths) {
          const value = dotted.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], picked);
          expect(value, `${locale}: ${dotted}`).toBeDefined();
        }
      }
    }
  });

  it("pick each path whole, in the catalogue's shape, and nothing else", () => {
    const messages = { a: { b: { c: "1", d: "2" }, e: "3" }, f: "4", g: { h: "5" } };
    expect(pickWords(messages, ["a.b", "f"])).toEqual({ a: { b: { c: "1", d: "2" } }, f: "4" });
    expect(pickWords(messages, ["a.b.c", "a.e", "missing.path"])).toEqual({ a: { b: { c: "1" }, e: "3" } });
  });

  it("see a client component's namespace through the imports of a page", () => {
    // A known reader: the orders table, a client component the orders page renders.
    const orders = needs.find((need) => need.file === "app/s/[shopId]/orders/page.tsx")!;
    expect(orders.namespaces.get("orders.table")).toContain("features/orders/components/orders-table.tsx");
    expect(orders.byKey).toContain("orders.filters.status");
  });
});
