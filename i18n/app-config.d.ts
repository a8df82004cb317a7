// Types next-intl's keys, locales and named formats: a `t("key")` that no English catalogue holds
// does not compile.
import type { formats, Locale } from "@/i18n/config";
import type { Messages } from "@/messages";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
    Formats: typeof formats;
  }
}
