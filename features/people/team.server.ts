import "server-only";
import { db } from "@/lib/db.server";
import { isRole } from "@/lib/people/roles";
import type { Role } from "@/lib/people/roles";
import { accessChanged } from "@/lib/people/sessions.server";

// Who is in the shop, and changing their roles.

export interface Member {
  personId: string;
  name: string;
  marketplaceEmail: string | null;
  role: Role;
  since: Date;
  passkeys: number;
}

export async function listMembers(shopId: string): Promise<Member[]> {
  const rows = await db.membership.findMany({
    where: { shopId },
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
export async function changeMembership(shopId: string, personId: string, role: Role | null): Promise<Role | null> {
  const before = await db.$transaction(async (tx) => {
    const owners = await tx.$queryRaw<{ personId: string }[]>`
      SELECT "personId" FROM "Membership" WHERE "sellerId" = ${shopId} AND "role" = 'owner' FOR UPDATE`;
    const current = await tx.membership.findUnique({ where: { shopId_personId: { shopId, personId } }, select: { role: true } });
    if (!current || !isRole(current.role)) return null;
    if (current.role === "owner" && role !== "owner" && owners.length <= 1) throw new LastOwnerError();
    if (role === null) await tx.membership.delete({ where: { shopId_personId: { shopId, personId } } });
    else await tx.membership.update({ where: { shopId_personId: { shopId, personId } }, data: { role } });
    // Ownership handed out by someone who no longer has it dies with theirs.
    if (current.role === "owner" && role !== "owner") {
      await tx.invitation.updateMany({
        where: { shopId, createdById: personId, role: "owner", acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
    return current.role;
  });
  if (before) await accessChanged(personId);
  return before;
}
