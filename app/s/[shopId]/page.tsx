export { OverviewPage as default } from "@/features/overview/pages/overview-page";
