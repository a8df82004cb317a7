export { OverviewPage as default } from "@/features/overview/components";
