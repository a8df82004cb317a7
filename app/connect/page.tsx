import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { ConnectButton } from "@/components/auth/connect-button";
import { PasskeySignIn } from "@/components/auth/passkey-sign-in";
import { signInAction } from "@/lib/auth/actions";
import { getCurrentPerson } from "@/lib/auth/session.server";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("connect"))("title") };
}

const DEMO_ACCOUNTS = [
  { login: "seller@example.com", note: "demoPro" },
  { login: "seller2@example.com", note: "demoPro2" },
  { login: "free@example.com", note: "demoFree" },
] as const;

export default async function ConnectPage() {
  if (await getCurrentPerson()) redirect("/");
  const t = await getTranslations("connect");

  return (
    <section className="mx-auto max-w-lg space-y-6 rounded-lg border border-zinc-200 bg-white p-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-2 text-sm text-zinc-600">{t("intro")}</p>
      </div>
      <ConnectButton />
      <div className="space-y-3 border-t border-zinc-200 pt-6" data-testid="sign-in">
        <h2 className="text-lg font-medium">{t("signIn.title")}</h2>
        <p className="text-sm text-zinc-600">{t("signIn.intro")}</p>
        <div className="flex flex-wrap gap-3">
          <PasskeySignIn />
          <form action={signInAction}>
            <button
              type="submit"
              className="min-h-11 rounded-md border border-zinc-300 px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
            >
              {t("signIn.marketplace")}
            </button>
          </form>
        </div>
      </div>
      {env.SANDBOX_MODE ? (
        <div className="rounded-md bg-zinc-50 p-4 text-sm" data-testid="sandbox-credentials">
          <p className="font-medium text-zinc-900">{t("sandboxAccounts")}</p>
          <p className="mt-1 text-zinc-600">{t.rich("sandboxPassword", { password: () => <code className="font-mono">demo1234</code> })}</p>
          <ul className="mt-2 space-y-1">
            {DEMO_ACCOUNTS.map((account) => (
              <li key={account.login}>
                <code className="font-mono">{account.login}</code> <span className="text-zinc-600">— {t(account.note)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
