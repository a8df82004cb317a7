import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "@/lib/auth";
import { findCurrentSeller } from "@/lib/data/sellers";
import { env } from "@/lib/env";
import type { CurrentSeller } from "@/lib/data/sellers";

/** The session's claims, as the cookie carries them. */
export interface SessionClaims {
  sellerId?: string;
  /** The SellerSession row of this sign-in (lib/data/sessions.ts). */
  sessionId?: string;
  sessionEpoch?: string;
  startedAt?: number;
}

/**
 * The seller a session belongs to, or null when the session has ended: it was signed out (its row
 * is gone), its connection is gone (disconnected) or was renewed since (a reconnect ends every
 * earlier session), or it began more than SESSION_MAX_AGE_SECONDS ago. A cookie from before
 * sessions had rows names none, and counts as signed out.
 */
export async function sellerOfSession(claims: SessionClaims | null | undefined, now = Date.now()): Promise<CurrentSeller | null> {
  if (!claims?.sellerId || !claims.sessionId || !claims.sessionEpoch || claims.startedAt === undefined) return null;
  if (now - claims.startedAt > env.SESSION_MAX_AGE_SECONDS * 1000) return null;
  const seller = await findCurrentSeller(claims.sellerId, claims.sessionId);
  return seller && seller.connection.sessionEpoch === claims.sessionEpoch ? seller : null;
}

/** The signed-in seller, or null. Reads the session cookie and the database. Cached per request. */
export const getCurrentSeller = cache(async (): Promise<CurrentSeller | null> => sellerOfSession(await auth()));

/**
 * Every page, server action and route handler that touches a seller's data starts here; it
 * never relies on a proxy having checked. Pages and actions are sent to the sign-in page.
 */
export async function requireSeller(): Promise<CurrentSeller> {
  const seller = await getCurrentSeller();
  if (!seller) redirect("/connect");
  return seller;
}
