import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ConnectButton } from "@/components/auth/connect-button";
import { describeConnectError, knownConnectErrorCode } from "@/lib/auth/connect-errors";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("connect"))("errorPage.title") };
}

export default async function ConnectErrorPage({ searchParams }: PageProps<"/connect/error">) {
  const params = await searchParams;
  const t = await getTranslations("connect");
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const error = first(params.error);
  const stage = first(params.stage);
  const { title, description } = describeConnectError(error, stage, t);
  const code = knownConnectErrorCode(error, stage);

  return (
    <section role="alert" className="mx-auto max-w-lg space-y-4 rounded-lg border border-red-200 bg-white p-8">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-sm text-zinc-700">{description}</p>
      {code ? <p className="text-xs text-zinc-600">{t("errorPage.code", { code })}</p> : null}
      <div className="flex items-center gap-4">
        <ConnectButton>{t("errorPage.tryAgain")}</ConnectButton>
        <Link href="/" className="text-sm text-zinc-600 hover:underline">
          {t("errorPage.backToStart")}
        </Link>
      </div>
    </section>
  );
}
