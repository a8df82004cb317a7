import "server-only";
import { db } from "@/lib/db.server";
import { isRole } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { normalizeEmail } from "@marketplace/api/schemas/oauth";

export interface PersonShop {
  id: string;
  name: string;
  email: string;
  role: Role;
  connected: boolean;
}

export interface CurrentPerson {
  id: string;
  name: string;
  marketplaceEmail: string | null;
  lastShopId: string | null;
  shops: PersonShop[];
}

/**
 * Null when the session has ended or is not `personId`'s (a null `personId` takes the session's own
 * person). Read on every request, so one statement.
 */
export async function findCurrentPerson(sessionId: string, personId: string | null): Promise<CurrentPerson | null> {
  const rows = await db.$queryRaw<
    {
      id: string;
      name: string;
      marketplaceEmail: string | null;
      lastShopId: string | null;
      role: string | null;
      shopId: string | null;
      shopName: string | null;
      shopEmail: string | null;
      connected: boolean;
    }[]
  >`
    SELECT p."id", p."name", p."marketplaceEmail", p."lastShopId", m."role", s."id" AS "shopId", s."name" AS "shopName", s."email" AS "shopEmail", (c."id" IS NOT NULL) AS "connected"
    FROM "PersonSession" ps
    JOIN "Person" p ON p."id" = ps."personId"
    LEFT JOIN "Membership" m ON m."personId" = p."id"
    LEFT JOIN "Seller" s ON s."id" = m."sellerId"
    LEFT JOIN "Connection" c ON c."sellerId" = s."id"
    WHERE ps."id" = ${sessionId} AND (${personId}::text IS NULL OR ps."personId" = ${personId})`;
  const first = rows[0];
  if (!first) return null;
  const shops = rows
    .flatMap((row) =>
      row.shopId && isRole(row.role)
        ? [{ id: row.shopId, name: row.shopName ?? "", email: row.shopEmail ?? "", role: row.role, connected: row.connected }]
        : [],
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
  return { id: first.id, name: first.name, marketplaceEmail: first.marketplaceEmail, lastShopId: first.lastShopId, shops };
}

export class PersonIdentityConflictError extends Error {
  constructor() {
    super("Another marketplace account already signs in here with this e-mail address, spelt differently");
    this.name = "PersonIdentityConflictError";
  }
}

/**
 * Found by the normalised e-mail, the only identity basic_user_info gives; refused when the platform
 * spells it differently from the person's first sign-in (`Owner.Case@…` and `owner.case@…` may be
 * two platform users), as connectShop refuses a shop's.
 */
export async function personForMarketplaceAccount(email: string, name: string): Promise<{ id: string; name: string }> {
  const marketplaceEmail = normalizeEmail(email);
  return db.$transaction(async (tx) => {
    const person = await tx.person.upsert({
      where: { marketplaceEmail },
      create: { marketplaceEmail, platformEmail: email, name },
      update: {},
      select: { id: true, name: true, platformEmail: true },
    });
    if (person.platformEmail !== null && person.platformEmail !== email) throw new PersonIdentityConflictError();
    // People from before the exact spelling was kept learn it here (the migration gave owners theirs).
    if (person.platformEmail === null) await tx.person.update({ where: { id: person.id }, data: { platformEmail: email } });
    return { id: person.id, name: person.name };
  });
}

export async function findPersonName(personId: string): Promise<{ id: string; name: string } | null> {
  return db.person.findUnique({ where: { id: personId }, select: { id: true, name: true } });
}

/** Whoever can sign in to the marketplace account controls the shop anyway, so they own it. */
export async function makeOwner(personId: string, shopId: string): Promise<void> {
  await db.$transaction([
    db.membership.upsert({
      where: { shopId_personId: { shopId, personId } },
      create: { shopId, personId, role: "owner" },
      update: { role: "owner" },
    }),
    db.person.update({ where: { id: personId }, data: { lastShopId: shopId } }),
  ]);
}

export async function roleIn(personId: string, shopId: string): Promise<Role | null> {
  const membership = await db.membership.findUnique({ where: { shopId_personId: { shopId, personId } }, select: { role: true } });
  return membership && isRole(membership.role) ? membership.role : null;
}
