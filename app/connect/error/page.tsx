import type { Metadata } from "next";
import Link from "next/link";
import { ConnectButton } from "@/components/auth/connect-button";
import { describeConnectError, knownConnectErrorCode } from "@/lib/auth/connect-errors";

export const metadata: Metadata = { title: "Connecting failed" };

export default async function ConnectErrorPage({ searchParams }: PageProps<"/connect/error">) {
  const params = await searchParams;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const error = first(params.error);
  const stage = first(params.stage);
  const { title, description } = describeConnectError(error, stage);
  const code = knownConnectErrorCode(error, stage);

  return (
    <section role="alert" className="mx-auto max-w-lg space-y-4 rounded-lg border border-red-200 bg-white p-8">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-sm text-zinc-700">{description}</p>
      {code ? <p className="text-xs text-zinc-500">Code: {code}</p> : null}
      <div className="flex items-center gap-4">
        <ConnectButton>Try again</ConnectButton>
        <Link href="/" className="text-sm text-zinc-600 hover:underline">
          Back to the start
        </Link>
      </div>
    </section>
  );
}
