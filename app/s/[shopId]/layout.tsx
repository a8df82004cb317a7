import { getTranslations } from "next-intl/server";
import { ConnectButton } from "@/components/auth/connect-button";
import { latestLiveMessageId } from "@/features/webhooks";
import { LiveUpdates } from "@/features/webhooks/client";
import { JustConnected } from "@/components/just-connected";
import { RememberShop } from "@/components/remember-shop";
import { ShopRoleProvider } from "@/components/shop-role";
import { can } from "@/lib/people/roles";
import { ClientWords } from "@/i18n/client-words-provider";
import { requireShop } from "@/lib/auth/session.server";

// Every page of a shop: which shop it is about and as whom (visible at every width), the
// "reconnect" notice, and the shop's live stream. Each page checks its own capability too.
export default async function ShopLayout({ params, children }: LayoutProps<"/s/[shopId]">) {
  const access = await requireShop((await params).shopId, "overview.view");
  const t = await getTranslations("shell");
  return (
    <ClientWords layout="s/[shopId]">
      <p className="mb-4 text-sm text-zinc-600" data-testid="current-shop">
        {t.rich("shop.current", { name: access.shop.name, role: t(`roles.${access.role}`) })}
      </p>
      <JustConnected shopName={access.shop.name} />
      {access.shop.connection.needsReconnect ? (
        <div
          role="status"
          className="mb-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
        >
          <span>{t("accessRevoked")}</span>
          {can(access.role, "connection.manage") ? <ConnectButton>{t("reconnect")}</ConnectButton> : null}
        </div>
      ) : null}
      <ShopRoleProvider role={access.role}>{children}</ShopRoleProvider>
      <LiveUpdates shopId={access.shop.id} after={await latestLiveMessageId()} />
      <RememberShop shopId={access.shop.id} />
    </ClientWords>
  );
}
