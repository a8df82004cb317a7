import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "@/lib/auth";
import { can } from "@/lib/auth/roles";
import type { Capability, Role } from "@/lib/auth/roles";
import { findCurrentPerson } from "@/lib/data/people";
import type { CurrentPerson } from "@/lib/data/people";
import { findCurrentSeller } from "@/lib/data/sellers";
import type { CurrentSeller } from "@/lib/data/sellers";
import { env } from "@/lib/env";

/** The session's claims, as the cookie carries them. */
export interface SessionClaims {
  personId?: string;
  /** A cookie issued before people existed names its seller instead (see below). */
  sellerId?: string;
  /** The PersonSession row of this sign-in (lib/data/sessions.ts). */
  sessionId?: string;
  startedAt?: number;
}

/**
 * The person a session belongs to, or null when the session has ended: it was signed out (its row
 * is gone) or began more than SESSION_MAX_AGE_SECONDS ago. A cookie issued before people existed
 * names a seller and a session row; the migration gave that row to the shop's owner, so it signs
 * that person in.
 */
export async function personOfSession(claims: SessionClaims | null | undefined, now = Date.now()): Promise<CurrentPerson | null> {
  if (!claims?.sessionId || claims.startedAt === undefined || !(claims.personId || claims.sellerId)) return null;
  if (now - claims.startedAt > env.SESSION_MAX_AGE_SECONDS * 1000) return null;
  return findCurrentPerson(claims.sessionId, claims.personId ?? null);
}

/** The signed-in person, or null. Reads the session cookie and the database. Cached per request. */
export const getCurrentPerson = cache(async (): Promise<CurrentPerson | null> => personOfSession(await auth()));

/** Pages and actions about the person themselves (not a shop): to the sign-in page when signed out. */
export async function requirePerson(): Promise<CurrentPerson> {
  const person = await getCurrentPerson();
  if (!person) redirect("/connect");
  return person;
}

/** A person's way into one shop: the shop (never with its token) and their role in it. */
export interface ShopAccess {
  person: CurrentPerson;
  shop: CurrentSeller;
  role: Role;
}

export type ShopRefusal = "signed-out" | "not-a-member" | "disconnected";

/** Whether `claims` open the shop `shopId`, and as whom. */
export async function shopAccessOf(claims: SessionClaims | null | undefined, shopId: string): Promise<ShopAccess | ShopRefusal> {
  const person = await personOfSession(claims);
  if (!person) return "signed-out";
  const membership = person.shops.find((shop) => shop.id === shopId);
  if (!membership) return "not-a-member";
  const shop = await findCurrentSeller(shopId);
  if (!shop) return "disconnected";
  return { person, shop, role: membership.role };
}

/** The signed-in person's access to a shop (cached per request). */
export const getShopAccess = cache(async (shopId: string): Promise<ShopAccess | ShopRefusal> => shopAccessOf(await auth(), shopId));

/**
 * Every page and server action about a shop starts here, with the shop named by its URL (or the
 * action's bound argument), never by what another tab last opened: signed out → the sign-in page;
 * not a member, or a role without `capability` → the refusal page (nothing is read or changed);
 * a disconnected shop → the shops list, where its owner can connect it again.
 */
export async function requireShop(shopId: unknown, capability: Capability): Promise<ShopAccess> {
  const access = typeof shopId === "string" && shopId.length > 0 && shopId.length <= 64 ? await getShopAccess(shopId) : "not-a-member";
  if (access === "signed-out") redirect("/connect");
  if (access === "disconnected") redirect("/shops");
  if (access === "not-a-member" || !can(access.role, capability)) redirect("/refused");
  return access;
}

/**
 * The same check for route handlers, which answer in JSON: 401 signed out, 403 for anyone else
 * without the capability (a shop they are not in looks the same as one that does not exist).
 */
export async function authorizeShopRequest(shopId: string, capability: Capability): Promise<ShopAccess | Response> {
  const access = await getShopAccess(shopId);
  if (access === "signed-out") return Response.json({ error: "Not signed in" }, { status: 401 });
  if (access === "not-a-member" || access === "disconnected" || !can(access.role, capability)) {
    return Response.json({ error: "You do not have access to this" }, { status: 403 });
  }
  return access;
}
