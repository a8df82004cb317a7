"use server";

import { auth, signIn, signOut } from "@/lib/auth";
import { requireSeller } from "@/lib/auth/session";
import { endEverySession, endSession } from "@/lib/data/sessions";
import { withPlatform } from "@/lib/data/platform";
import { deleteConnection, deleteSellerData } from "@/lib/data/sellers";
import type { CurrentSeller } from "@/lib/data/sellers";
import { MARKETPLACE_PROVIDER_ID } from "@/lib/marketplace/provider";

/** Starts the OAuth flow: to the platform's login and consent page, back to the dashboard. */
export async function connectAction() {
  await signIn(MARKETPLACE_PROVIDER_ID, { redirectTo: "/" });
}

/**
 * Ends this browser's session on the server too, so a copy of its cookie no longer works; the
 * connection and other browsers' sessions stay. Works for an already ended session (clears the cookie).
 */
export async function signOutAction() {
  const session = await auth();
  if (session?.sellerId && session.sessionId) await endSession(session.sellerId, session.sessionId);
  await signOut({ redirectTo: "/" });
}

/** Ends every session of the signed-in seller, in every browser; the connection stays. */
export async function signOutEverywhereAction() {
  const seller = await requireSeller();
  await endEverySession(seller.id);
  await signOut({ redirectTo: "/" });
}

/**
 * "Delete my data": disconnects as below, then deletes the seller and everything the dashboard
 * kept for them (event log, order and price mirrors, SKU catalogue, sessions). The platform keeps
 * its own data.
 */
export async function deleteMyDataAction() {
  const seller = await requireSeller();
  await removeCallbackUrl(seller);
  await deleteSellerData(seller.id);
  await signOut({ redirectTo: "/" });
}

/**
 * Removes the callback URL at the platform (a dead token's 401 is ignored: there is nothing left
 * to remove with it), forgets the stored token (which ends every session of this connection, in
 * every browser, and closes their live streams) and signs out.
 */
export async function disconnectAction() {
  const seller = await requireSeller();
  await removeCallbackUrl(seller);
  await deleteConnection(seller.id);
  await signOut({ redirectTo: "/" });
}

async function removeCallbackUrl(seller: CurrentSeller) {
  const removal = await withPlatform(seller, "deleteWebhookUrl", (client) => client.deleteWebhookUrl());
  if (!removal.ok && removal.problem.kind === "error") {
    // The seller asked to leave; a platform hiccup must not keep their token here.
    console.warn(`[disconnect] callback URL removal failed for seller ${seller.id}: ${removal.problem.message}`);
  }
}
