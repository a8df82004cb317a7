export { OverviewPanel } from "./components/overview";
export { getOverview } from "./overview.server";
