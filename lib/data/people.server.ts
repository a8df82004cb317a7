import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db.server";
import { isRole } from "@/lib/auth/roles";
import type { Role } from "@/lib/auth/roles";
import { accessChanged } from "@/lib/data/sessions.server";
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
 * two platform users), as connectSeller refuses a shop's.
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
export async function makeOwner(personId: string, sellerId: string): Promise<void> {
  await db.$transaction([
    db.membership.upsert({
      where: { sellerId_personId: { sellerId, personId } },
      create: { sellerId, personId, role: "owner" },
      update: { role: "owner" },
    }),
    db.person.update({ where: { id: personId }, data: { lastShopId: sellerId } }),
  ]);
}

export async function roleIn(personId: string, sellerId: string): Promise<Role | null> {
  const membership = await db.membership.findUnique({ where: { sellerId_personId: { sellerId, personId } }, select: { role: true } });
  return membership && isRole(membership.role) ? membership.role : null;
}

export interface Member {
  personId: string;
  name: string;
  marketplaceEmail: string | null;
  role: Role;
  since: Date;
  passkeys: number;
}

export async function listMembers(sellerId: string): Promise<Member[]> {
  const rows = await db.membership.findMany({
    where: { sellerId },
    orderBy: [{ createdAt: "asc" }],
    select: {
      role: true,
      createdAt: true,
      person: { select: { id: true, name: true, marketplaceEmail: true, _count: { select: { passkeys: true } } } },
    },
  });
  return rows
    .filter((row) => isRole(row.role))
    .map((row) => ({
      personId: row.person.id,
      name: row.person.name,
      marketplaceEmail: row.person.marketplaceEmail,
      role: row.role as Role,
      since: row.createdAt,
      passkeys: row.person._count.passkeys,
    }));
}

export class LastOwnerError extends Error {
  constructor() {
    super("A shop keeps at least one owner");
    this.name = "LastOwnerError";
  }
}

/**
 * `role` null removes them. Owners are locked while counted, so two owners demoting each other at
 * once cannot both succeed. Answers the role before, or null when they were not a member.
 */
export async function changeMembership(sellerId: string, personId: string, role: Role | null): Promise<Role | null> {
  const before = await db.$transaction(async (tx) => {
    const owners = await tx.$queryRaw<{ personId: string }[]>`
      SELECT "personId" FROM "Membership" WHERE "sellerId" = ${sellerId} AND "role" = 'owner' FOR UPDATE`;
    const current = await tx.membership.findUnique({ where: { sellerId_personId: { sellerId, personId } }, select: { role: true } });
    if (!current || !isRole(current.role)) return null;
    if (current.role === "owner" && role !== "owner" && owners.length <= 1) throw new LastOwnerError();
    if (role === null) await tx.membership.delete({ where: { sellerId_personId: { sellerId, personId } } });
    else await tx.membership.update({ where: { sellerId_personId: { sellerId, personId } }, data: { role } });
    // Ownership handed out by someone who no longer has it dies with theirs.
    if (current.role === "owner" && role !== "owner") {
      await tx.invitation.updateMany({
        where: { sellerId, createdById: personId, role: "owner", acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
    return current.role;
  });
  if (before) await accessChanged(personId);
  return before;
}

// Invitations: the link carries a random token; only its hash is stored.
export const INVITATION_DAYS = 7;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createInvitation(
  sellerId: string,
  role: Role,
  createdById: string,
  now = new Date(),
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const { id } = await db.invitation.create({
    data: { sellerId, role, tokenHash: hashToken(token), createdById, expiresAt, createdAt: now },
  });
  return { id, token, expiresAt };
}

export interface PendingInvitation {
  id: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

/** The shop's owners now: an owner invitation is good only while the owner who made it still is one. */
async function ownersOf(sellerId: string): Promise<Set<string>> {
  const owners = await db.membership.findMany({ where: { sellerId, role: "owner" }, select: { personId: true } });
  return new Set(owners.map((owner) => owner.personId));
}

const outlivedItsMaker = (invitation: { role: string; createdById: string }, owners: ReadonlySet<string>) =>
  invitation.role === "owner" && !owners.has(invitation.createdById);

export async function listPendingInvitations(sellerId: string, now = new Date()): Promise<PendingInvitation[]> {
  const [rows, owners] = await Promise.all([
    db.invitation.findMany({
      where: { sellerId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      orderBy: { createdAt: "desc" },
      select: { id: true, role: true, createdAt: true, expiresAt: true, createdById: true },
    }),
    ownersOf(sellerId),
  ]);
  return rows
    .filter((row) => isRole(row.role) && !outlivedItsMaker(row, owners))
    .map(({ createdById: _maker, ...row }) => ({ ...row, role: row.role as Role }));
}

/** Answers the revoked invitation's role, or null when there was nothing pending to revoke. */
export async function revokeInvitation(sellerId: string, id: string, now = new Date()): Promise<Role | null> {
  const invitation = await db.invitation.findFirst({ where: { id, sellerId, acceptedAt: null, revokedAt: null }, select: { role: true } });
  if (!invitation) return null;
  const { count } = await db.invitation.updateMany({
    where: { id, sellerId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: now },
  });
  return count === 1 && isRole(invitation.role) ? invitation.role : null;
}

export type InvitationState =
  | { state: "open"; id: string; sellerId: string; shopName: string; role: Role; expiresAt: Date }
  | { state: "unknown" | "used" | "expired" | "revoked" };

export async function readInvitation(token: string, now = new Date()): Promise<InvitationState> {
  const invitation = await db.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      sellerId: true,
      role: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      createdById: true,
      seller: { select: { name: true } },
    },
  });
  if (!invitation || !isRole(invitation.role)) return { state: "unknown" };
  if (invitation.acceptedAt) return { state: "used" };
  // Made before changeMembership revoked such invitations, or by a person since deleted.
  if (invitation.revokedAt || (invitation.role === "owner" && outlivedItsMaker(invitation, await ownersOf(invitation.sellerId))))
    return { state: "revoked" };
  if (invitation.expiresAt <= now) return { state: "expired" };
  return {
    state: "open",
    id: invitation.id,
    sellerId: invitation.sellerId,
    shopName: invitation.seller.name,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
  };
}

/** A member keeps their role (an invite never demotes an owner). Of two people using one link at once, one joins. */
export async function acceptInvitation(token: string, personId: string, now = new Date()): Promise<InvitationState> {
  const invitation = await readInvitation(token, now);
  if (invitation.state !== "open") return invitation;
  const used = await db.$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedById: personId },
    });
    if (count !== 1) return false;
    await tx.membership.upsert({
      where: { sellerId_personId: { sellerId: invitation.sellerId, personId } },
      create: { sellerId: invitation.sellerId, personId, role: invitation.role },
      update: {},
    });
    await tx.person.update({ where: { id: personId }, data: { lastShopId: invitation.sellerId } });
    return true;
  });
  return used ? invitation : { state: "used" };
}
