import { useTranslations } from "next-intl";
import { connectAction } from "@/lib/auth/actions";

export function ConnectButton({ children }: { children?: React.ReactNode }) {
  const t = useTranslations("connect");
  return (
    <form action={connectAction}>
      <button
        type="submit"
        className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        {children ?? t("button")}
      </button>
    </form>
  );
}
