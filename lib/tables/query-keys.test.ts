import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys";

// What the tables and the live updates rely on: React Query matches a key by its prefix, so the key a
// live update invalidates must be a prefix of every page's key, and one shop's must not reach another's.
describe("query keys", () => {
  function cacheWithPages() {
    const client = new QueryClient();
    client.setQueryData(queryKeys.orders.page("shop-a", { page: 1, status: "new" }), ["a1"]);
    client.setQueryData(queryKeys.orders.page("shop-b", { page: 1 }), ["b1"]);
    client.setQueryData(queryKeys.shipping.page("shop-a", { page: 1 }), ["s1"]);
    return client;
  }
  const stale = (client: QueryClient) =>
    client
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.isInvalidated)
      .map((query) => query.queryKey);

  it("a live update's key refreshes every page of that resource, in every shop, and nothing else", async () => {
    const client = cacheWithPages();
    await client.invalidateQueries({ queryKey: queryKeys.orders.all });
    expect(stale(client)).toEqual([
      queryKeys.orders.page("shop-a", { page: 1, status: "new" }),
      queryKeys.orders.page("shop-b", { page: 1 }),
    ]);
  });

  it("a shop's key refreshes that shop's pages only", async () => {
    const client = cacheWithPages();
    await client.invalidateQueries({ queryKey: queryKeys.orders.shop("shop-b") });
    expect(stale(client)).toEqual([queryKeys.orders.page("shop-b", { page: 1 })]);
  });

  it("names each resource apart, so two tables never share a page", () => {
    const names = Object.values(queryKeys).map((keys) => keys.all[0]);
    expect(new Set(names).size).toBe(names.length);
  });
});
