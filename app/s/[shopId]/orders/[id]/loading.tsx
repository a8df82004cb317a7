import { useTranslations } from "next-intl";
import { DetailLoading } from "@/components/ui/detail-loading";

// Shown at once while the platform answers for the order (endpoint 8). With it, a page that turns
// out not to exist answers HTTP 200 with the not-found page and a noindex tag: the status is sent
// before the platform has answered (decision 0007).
export default function Loading() {
  const t = useTranslations("orders");
  return <DetailLoading back="/orders" backLabel={t("title")} what={t("detail.loading")} />;
}
