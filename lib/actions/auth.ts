"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { auth, signIn, signOut } from "@/lib/auth";
import { INTENT_COOKIE } from "@/lib/auth/callback-context";
import type { SignInIntent } from "@/lib/auth/callback-context";
import { personOfSession, requirePerson, requireShop } from "@/lib/auth/session";
import { recordAudit } from "@/lib/data/audit";
import { endEverySession, endSession } from "@/lib/data/sessions";
import { withPlatform } from "@/lib/data/platform";
import { deleteConnection, deleteSellerData } from "@/lib/data/sellers";
import { shopLog } from "@/lib/log";
import type { CurrentSeller } from "@/lib/data/sellers";
import { MARKETPLACE_PROVIDER_ID } from "@/lib/marketplace/provider";

/** Goes to the platform's login; the callback reads why (lib/auth/callback-route.ts). */
async function toMarketplaceLogin(intent: SignInIntent, redirectTo: string) {
  (await cookies()).set(INTENT_COOKIE, intent, { httpOnly: true, sameSite: "lax", path: "/api/auth", maxAge: 600, secure: process.env.NODE_ENV === "production" });
  await signIn(MARKETPLACE_PROVIDER_ID, { redirectTo });
}

/**
 * "Connect marketplace account": the OAuth flow, after which the account is a shop the person owns
 * (signed in already: one more of their shops; signed out: they are signed in as its owner).
 */
export async function connectAction() {
  await toMarketplaceLogin("connect", "/");
}

/**
 * "Sign in with marketplace account": for someone already in a shop's team, whose own account is
 * not (and must not become) a shop: signs them in, and the account's token is not kept.
 */
export async function signInAction() {
  await toMarketplaceLogin("signin", "/");
}

const inviteToken = z.string().min(16).max(100).regex(/^[\w-]+$/);

/**
 * The invite page's "Sign in with your marketplace account": signs the person in only; their own
 * account's token is not kept, and never serves the shop that invited them.
 */
export async function signInForInviteAction(token: string) {
  const parsed = inviteToken.safeParse(token);
  await toMarketplaceLogin("signin", parsed.success ? `/invite/${parsed.data}` : "/");
}

/**
 * Ends this browser's session on the server too, so a copy of its cookie no longer works; the
 * person's other sessions stay. Works for an already ended session (clears the cookie).
 */
export async function signOutAction() {
  const session = await auth();
  // A cookie from before people existed names no person: its row now belongs to the shop's owner.
  const person = session?.sessionId ? await personOfSession(session) : null;
  if (person && session?.sessionId) await endSession(person.id, session.sessionId);
  await signOut({ redirectTo: "/" });
}

/** Ends every session of the signed-in person, in every browser; their shops stay as they are. */
export async function signOutEverywhereAction() {
  const person = await requirePerson();
  await endEverySession(person.id);
  await signOut({ redirectTo: "/" });
}

/**
 * "Delete this shop's data": disconnects as below, then deletes the shop and everything the
 * dashboard kept for it (event log, order and price mirrors, SKU catalogue, members, audit log).
 * The platform keeps its own data; the people stay, with their other shops.
 */
export async function deleteMyDataAction(shopId: string) {
  const { shop } = await requireShop(shopId, "connection.manage");
  await removeCallbackUrl(shop);
  await deleteSellerData(shop.id);
  redirect("/shops");
}

/**
 * Removes the callback URL at the platform (a dead token's 401 is ignored: there is nothing left
 * to remove with it) and forgets the stored token; the shop's pages then refuse everyone until an
 * owner connects it again.
 */
export async function disconnectAction(shopId: string) {
  const { shop, person } = await requireShop(shopId, "connection.manage");
  await removeCallbackUrl(shop);
  await deleteConnection(shop.id);
  await recordAudit({ sellerId: shop.id, person, action: "connection.disconnect", subject: shop.email });
  redirect("/shops");
}

async function removeCallbackUrl(seller: CurrentSeller) {
  const removal = await withPlatform(seller, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
  if (!removal.ok && removal.problem.kind === "error") {
    // The owner asked to leave; a platform hiccup must not keep the token here.
    shopLog(seller.id, { component: "disconnect" }).warn({ status: removal.problem.status }, `callback URL removal failed: ${removal.problem.message}`);
  }
}
