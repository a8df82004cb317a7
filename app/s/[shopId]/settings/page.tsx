export { SettingsPage as default, settingsPageMetadata as generateMetadata } from "@/features/settings/pages/settings-page";
