// The overview's entry: the home page of a shop, from the order mirror and the webhooks' health.
export { getOverview } from "./overview.server";
