export { SettingsPage as default, settingsPageMetadata as generateMetadata } from "@/features/settings/components";
