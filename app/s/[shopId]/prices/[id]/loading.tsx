import { useTranslations } from "next-intl";
import { DetailLoading } from "@/components/ui/detail-loading";

// Shown at once while the platform answers for the price and its history (endpoint 6); see
// app/s/[shopId]/orders/[id]/loading.tsx for what it does to a not-found's status.
export default function Loading() {
  const t = useTranslations("prices");
  return <DetailLoading back="/prices" backLabel={t("title")} what={t("detail.loadingWhat")} />;
}
