import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "@/lib/auth/auth.server";
import { can } from "@/lib/people/roles";
import type { Capability, Role } from "@/lib/people/roles";
import { findCurrentPerson } from "@/lib/people/people.server";
import type { CurrentPerson } from "@/lib/people/people.server";
import { findCurrentShop } from "@/lib/shops/shops.server";
import type { CurrentShop } from "@/lib/shops/shops.server";
import { env } from "@/lib/env";

export interface SessionClaims {
  personId?: string;
  /** Set instead of personId by a cookie older than people (see personOfSession). */
  sellerId?: string;
  /** The PersonSession row of this sign-in. */
  sessionId?: string;
  startedAt?: number;
}

/**
 * Null once signed out (row gone) or SESSION_MAX_AGE_SECONDS after sign-in. A seller-only cookie
 * signs in the shop's owner, to whom the migration gave its session row.
 */
export async function personOfSession(claims: SessionClaims | null | undefined, now = Date.now()): Promise<CurrentPerson | null> {
  if (!claims?.sessionId || claims.startedAt === undefined || !(claims.personId || claims.sellerId)) return null;
  if (now - claims.startedAt > env.SESSION_MAX_AGE_SECONDS * 1000) return null;
  return findCurrentPerson(claims.sessionId, claims.personId ?? null);
}

/** Cached per request. */
export const getCurrentPerson = cache(async (): Promise<CurrentPerson | null> => personOfSession(await auth()));

/** For pages and actions about the person, not a shop. */
export async function requirePerson(): Promise<CurrentPerson> {
  const person = await getCurrentPerson();
  if (!person) redirect("/connect");
  return person;
}

/** For route handlers about the person, not a shop: the person, or the 401 (never cached) that says they are not signed in. */
export async function authorizePersonRequest(): Promise<CurrentPerson | Response> {
  const person = await getCurrentPerson();
  return person ?? Response.json({ error: "Not signed in" }, { status: 401, headers: { "cache-control": "private, no-store" } });
}

/** `shop` never carries its token. */
export interface ShopAccess {
  person: CurrentPerson;
  shop: CurrentShop;
  role: Role;
}

export type ShopRefusal = "signed-out" | "not-a-member" | "disconnected";

export async function shopAccessOf(claims: SessionClaims | null | undefined, shopId: string): Promise<ShopAccess | ShopRefusal> {
  const person = await personOfSession(claims);
  if (!person) return "signed-out";
  const membership = person.shops.find((shop) => shop.id === shopId);
  if (!membership) return "not-a-member";
  const shop = await findCurrentShop(shopId);
  if (!shop) return "disconnected";
  return { person, shop, role: membership.role };
}

/** Cached per request. */
export const getShopAccess = cache(async (shopId: string): Promise<ShopAccess | ShopRefusal> => shopAccessOf(await auth(), shopId));

/** Every shop page and action starts here, with the shop its URL names, never what another tab opened. */
export async function requireShop(shopId: unknown, capability: Capability): Promise<ShopAccess> {
  const access = typeof shopId === "string" && shopId.length > 0 && shopId.length <= 64 ? await getShopAccess(shopId) : "not-a-member";
  if (access === "signed-out") redirect("/connect");
  if (access === "disconnected") redirect("/shops");
  if (access === "not-a-member" || !can(access.role, capability)) redirect("/refused");
  return access;
}

/** For route handlers: 401 signed out, else 403, so a shop they are not in looks like none at all. */
export async function authorizeShopRequest(shopId: string, capability: Capability): Promise<ShopAccess | Response> {
  const access = await getShopAccess(shopId);
  if (access === "signed-out") return Response.json({ error: "Not signed in" }, { status: 401 });
  if (access === "not-a-member" || access === "disconnected" || !can(access.role, capability)) {
    return Response.json({ error: "You do not have access to this" }, { status: 403 });
  }
  return access;
}
