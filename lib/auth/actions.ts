"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { auth, signIn, signOut } from "@/lib/auth/auth.server";
import { INTENT_COOKIE } from "@/lib/auth/callback-context.server";
import type { SignInIntent } from "@/lib/auth/callback-context.server";
import { personOfSession, requirePerson, requireShop } from "@/lib/auth/session.server";
import { recordAudit } from "@/lib/audit/audit.server";
import { endEverySession, endSession } from "@/lib/people/sessions.server";
import { withPlatform } from "@/lib/platform/platform.server";
import { deleteConnection, deleteShopData } from "@/lib/shops/shops.server";
import { shopLog } from "@/lib/log.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { MARKETPLACE_PROVIDER_ID } from "@/lib/auth/marketplace-provider";

/** The intent cookie tells the callback why (lib/auth/callback-route.server.ts). */
async function toMarketplaceLogin(intent: SignInIntent, redirectTo: string) {
  (await cookies()).set(INTENT_COOKIE, intent, {
    httpOnly: true,
    sameSite: "lax",
    path: "/api/auth",
    maxAge: 600,
    secure: process.env.NODE_ENV === "production",
  });
  await signIn(MARKETPLACE_PROVIDER_ID, { redirectTo });
}

/** The account becomes a shop the person owns. */
export async function connectAction() {
  // Back on the shop just connected (the person's last), saying so: not on the one opened before.
  await toMarketplaceLogin("connect", "/?connected=1");
}

/** For a team member whose own account must not become a shop: its token is not kept. */
export async function signInAction() {
  await toMarketplaceLogin("signin", "/");
}

const inviteToken = z
  .string()
  .min(16)
  .max(100)
  .regex(/^[\w-]+$/);

export async function signInForInviteAction(token: string) {
  const parsed = inviteToken.safeParse(token);
  await toMarketplaceLogin("signin", parsed.success ? `/invite/${parsed.data}` : "/");
}

/** Ends the session row too, so a copy of the cookie stops working; other sessions stay. */
export async function signOutAction() {
  const session = await auth();
  // A seller-only cookie's row belongs to the shop's owner now.
  const person = session?.sessionId ? await personOfSession(session) : null;
  if (person && session?.sessionId) await endSession(person.id, session.sessionId);
  await signOut({ redirectTo: "/" });
}

export async function signOutEverywhereAction() {
  const person = await requirePerson();
  await endEverySession(person.id);
  await signOut({ redirectTo: "/" });
}

/** Deletes what the dashboard kept for the shop; the platform's data and the people stay. */
export async function deleteMyDataAction(shopId: string) {
  const { shop } = await requireShop(shopId, "connection.manage");
  await removeCallbackUrl(shop);
  await deleteShopData(shop.id);
  redirect("/shops");
}

/** A dead token's 401 is ignored: there is nothing left to remove with it. */
export async function disconnectAction(shopId: string) {
  const { shop, person } = await requireShop(shopId, "connection.manage");
  await removeCallbackUrl(shop);
  await deleteConnection(shop.id);
  await recordAudit({ shopId: shop.id, person, action: "connection.disconnect", subject: shop.email });
  redirect("/shops");
}

async function removeCallbackUrl(shop: CurrentShop) {
  const removal = await withPlatform(shop, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
  if (!removal.ok && removal.problem.kind === "error") {
    // The owner asked to leave; a platform hiccup must not keep the token here.
    shopLog(shop.id, { component: "disconnect" }).warn(
      { status: removal.problem.status },
      `callback URL removal failed: ${removal.problem.message}`,
    );
  }
}
