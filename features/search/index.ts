// One search across the person's shops (issue 42). Server code, no React.
export { searchShops } from "@/features/search/search.server";
export type { SearchResults } from "@/features/search/search.server";
export { findFor, searchRoute } from "@/features/search/search-route.server";
