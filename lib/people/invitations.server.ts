import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db.server";
import { DB_NOW, QUEUE_TOLD_FOR_FAN_OUT } from "@/lib/pg-pool.server";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isRole, rolesWith } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";

// Joining a shop through an invite link: what the link says, and using it. The kernel's, because
// signing up with a passkey joins through it (lib/auth/passkeys.server.ts); making, listing and
// revoking links is the team page's (features/people/invitations.server.ts).
// The link carries a random token; only its hash is stored.

export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The shop's owners now: an owner invitation is good only while the owner who made it still is one. */
export async function ownersOf(shopId: string): Promise<Set<string>> {
  const owners = await db.membership.findMany({ where: { shopId, role: "owner" }, select: { personId: true } });
  return new Set(owners.map((owner) => owner.personId));
}

export const outlivedItsMaker = (invitation: { role: string; createdById: string }, owners: ReadonlySet<string>) =>
  invitation.role === "owner" && !owners.has(invitation.createdById);

export type InvitationState =
  | { state: "open"; id: string; shopId: string; shopName: string; role: Role; expiresAt: Date }
  | { state: "unknown" | "used" | "expired" | "revoked" };

export async function readInvitation(token: string, now = new Date()): Promise<InvitationState> {
  const invitation = await db.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    select: {
      id: true,
      shopId: true,
      role: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      createdById: true,
      shop: { select: { name: true } },
    },
  });
  if (!invitation || !isRole(invitation.role)) return { state: "unknown" };
  if (invitation.acceptedAt) return { state: "used" };
  // Made before changeMembership revoked such invitations, or by a person since deleted.
  if (invitation.revokedAt || (invitation.role === "owner" && outlivedItsMaker(invitation, await ownersOf(invitation.shopId))))
    return { state: "revoked" };
  if (invitation.expiresAt <= now) return { state: "expired" };
  return {
    state: "open",
    id: invitation.id,
    shopId: invitation.shopId,
    shopName: invitation.shop.name,
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
      where: { shopId_personId: { shopId: invitation.shopId, personId } },
      create: { shopId: invitation.shopId, personId, role: invitation.role },
      update: {},
    });
    await tx.person.update({ where: { id: personId }, data: { lastShopId: invitation.shopId } });
    await tellMemberJoined(tx, invitation.shopId, personId);
    return true;
  });
  return used ? invitation : { state: "used" };
}

/** Who manages the team: told when someone joins (issue 41). */
const ROLES_TOLD_OF_MEMBERS = rolesWith("members.manage");

/**
 * In the transaction that makes the person a member: the shop's owners (not the newcomer) are told,
 * with the notification's place in the fan-out to e-mail and push (features/notifications).
 */
async function tellMemberJoined(tx: Prisma.TransactionClient, shopId: string, personId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `
      WITH told AS (
        INSERT INTO "Notification" ("id", "personId", "sellerId", "kind", "subject", "createdAt")
        SELECT gen_random_uuid()::text, m."personId", m."sellerId", 'member.joined', $2, ${DB_NOW}
        FROM "Membership" m
        WHERE m."sellerId" = $1 AND m."personId" <> $2 AND m."role" = ANY($3::text[])
        ON CONFLICT DO NOTHING
        RETURNING "id"
      )
      ${QUEUE_TOLD_FOR_FAN_OUT}`,
    shopId,
    personId,
    ROLES_TOLD_OF_MEMBERS,
  );
}
