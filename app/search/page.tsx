export { SearchPage as default, searchPageMetadata as generateMetadata } from "@/features/search/pages/search-page";
