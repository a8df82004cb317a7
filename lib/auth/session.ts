import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "@/lib/auth";
import { findCurrentSeller } from "@/lib/data/sellers";
import type { CurrentSeller } from "@/lib/data/sellers";

/**
 * The signed-in seller, or null. Reads the session cookie and the database (a disconnected
 * seller's old cookie finds no connection and counts as signed out). Cached per request.
 */
export const getCurrentSeller = cache(async (): Promise<CurrentSeller | null> => {
  const session = await auth();
  if (!session?.sellerId) return null;
  return findCurrentSeller(session.sellerId);
});

/**
 * Every page, server action and route handler that touches a seller's data starts here; it
 * never relies on a proxy having checked. Pages and actions are sent to the sign-in page.
 */
export async function requireSeller(): Promise<CurrentSeller> {
  const seller = await getCurrentSeller();
  if (!seller) redirect("/connect");
  return seller;
}
