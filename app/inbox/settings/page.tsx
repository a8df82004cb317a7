export { PreferencesPage as default, preferencesPageMetadata as generateMetadata } from "@/features/notifications/pages/preferences-page";
