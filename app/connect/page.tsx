import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConnectButton } from "@/components/auth/connect-button";
import { getCurrentSeller } from "@/lib/auth/session";
import { env } from "@/lib/env";

export const metadata: Metadata = { title: "Connect your marketplace account" };

const DEMO_ACCOUNTS = [
  { login: "seller@example.com", note: "PRO plan, “Loja Demo”" },
  { login: "seller2@example.com", note: "PRO plan, “Loja Dois”" },
  { login: "free@example.com", note: "no PRO plan: shows the refusal" },
];

export default async function ConnectPage() {
  if (await getCurrentSeller()) redirect("/");

  return (
    <section className="mx-auto max-w-lg space-y-6 rounded-lg border border-zinc-200 bg-white p-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Connect your marketplace account</h1>
        <p className="mt-2 text-sm text-zinc-600">
          You will sign in on the marketplace and approve what this dashboard may do: read your profile, manage your
          SKUs and prices, and read your orders. The dashboard never sees your password.
        </p>
      </div>
      <ConnectButton />
      {env.SANDBOX_MODE ? (
        <div className="rounded-md bg-zinc-50 p-4 text-sm" data-testid="sandbox-credentials">
          <p className="font-medium text-zinc-900">Sandbox accounts</p>
          <p className="mt-1 text-zinc-600">
            This dashboard talks to the local marketplace sandbox. Every account uses the password{" "}
            <code className="font-mono">demo1234</code>:
          </p>
          <ul className="mt-2 space-y-1">
            {DEMO_ACCOUNTS.map((account) => (
              <li key={account.login}>
                <code className="font-mono">{account.login}</code> <span className="text-zinc-500">— {account.note}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
