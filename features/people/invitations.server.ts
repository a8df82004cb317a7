import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db.server";
import { isRole } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { hashInvitationToken, outlivedItsMaker, ownersOf } from "@/lib/people/invitations.server";

// The team page's invite links: made by owners (and managers for lower roles), listed while open, revoked.
export const INVITATION_DAYS = 7;

export async function createInvitation(
  shopId: string,
  role: Role,
  createdById: string,
  now = new Date(),
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const { id } = await db.invitation.create({
    data: { shopId, role, tokenHash: hashInvitationToken(token), createdById, expiresAt, createdAt: now },
  });
  return { id, token, expiresAt };
}

export interface PendingInvitation {
  id: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export async function listPendingInvitations(shopId: string, now = new Date()): Promise<PendingInvitation[]> {
  const [rows, owners] = await Promise.all([
    db.invitation.findMany({
      where: { shopId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      orderBy: { createdAt: "desc" },
      select: { id: true, role: true, createdAt: true, expiresAt: true, createdById: true },
    }),
    ownersOf(shopId),
  ]);
  return rows
    .filter((row) => isRole(row.role) && !outlivedItsMaker(row, owners))
    .map(({ createdById: _maker, ...row }) => ({ ...row, role: row.role as Role }));
}

/** Answers the revoked invitation's role, or null when there was nothing pending to revoke. */
export async function revokeInvitation(shopId: string, id: string, now = new Date()): Promise<Role | null> {
  const invitation = await db.invitation.findFirst({ where: { id, shopId, acceptedAt: null, revokedAt: null }, select: { role: true } });
  if (!invitation) return null;
  const { count } = await db.invitation.updateMany({
    where: { id, shopId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: now },
  });
  return count === 1 && isRole(invitation.role) ? invitation.role : null;
}
