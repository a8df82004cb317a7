// React Query's keys for the data the dashboard's tables fetch, one factory per resource, so the
// page that renders a table, the table that fetches it and the live update that refreshes it name
// the same key by the same code instead of by strings kept in step.
//
// (The audit log is rendered on the server page by page, so it has no key.)
//
// A key is [resource, shopId, params]: invalidating `all` refreshes every page of every shop (a
// live update), `shop(shopId)` every page of one shop, and `page(...)` is one page's data.

function resource<Name extends string>(name: Name) {
  return {
    all: [name] as const,
    shop: (shopId: string) => [name, shopId] as const,
    page: <Params>(shopId: string, params: Params) => [name, shopId, params] as const,
  };
}

export const queryKeys = {
  orders: resource("orders"),
  events: resource("events"),
  prices: resource("prices"),
  shipping: resource("shipping"),
  skus: resource("skus"),
  /** What products cost, by SKU code: the catalogue's cost column. */
  costs: resource("costs"),
  /** The signed-in person's unread notifications, across their shops: the header's bell. */
  inbox: resource("inbox"),
};

/** A resource whose pages a table fetches and a live update may refresh. */
export type QueryResource = keyof typeof queryKeys;
