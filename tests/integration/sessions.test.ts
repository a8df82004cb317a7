import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Session from "@/lib/auth/session.server";
import type * as Notifications from "@/lib/db-notifications.server";
import type * as Sellers from "@/lib/shops/shops.server";
import type * as People from "@/lib/people/people.server";
import type * as Joining from "@/lib/people/invitations.server";
import type * as Invitations from "@/features/people/invitations.server";
import type * as Team from "@/features/people/team.server";
import type * as Sessions from "@/lib/people/sessions.server";
import type * as Sse from "@/features/webhooks/live/live-stream.server";
import { connect, useTestDatabase } from "../support/database";

// A session is a person's (issue 27): it ends when signed out (here or everywhere) or past its
// lifetime, and a shop opens to it only while the person is a member of that shop with a
// connection; a removal, a role change or a sign-out closes their live streams at once.
// (tests/e2e/connect.spec.ts and tests/e2e/teams.spec.ts walk the same through a browser.)
let sql: pg.Client;
let session: typeof Session;
let shops: typeof Sellers;
let sessions: typeof Sessions;
// The person, joining, the team and its invitations: one handle, as the tests read them.
let people: typeof People & typeof Joining & typeof Invitations & typeof Team;
let notifications: typeof Notifications;
let sse: typeof Sse;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  session = await import("@/lib/auth/session.server");
  shops = await import("@/lib/shops/shops.server");
  sessions = await import("@/lib/people/sessions.server");
  people = {
    ...(await import("@/lib/people/people.server")),
    ...(await import("@/lib/people/invitations.server")),
    ...(await import("@/features/people/invitations.server")),
    ...(await import("@/features/people/team.server")),
  };
  notifications = await import("@/lib/db-notifications.server");
  sse = await import("@/features/webhooks/live/live-stream.server");
  await notifications.startListening();
}, 60_000);

afterAll(async () => {
  await notifications.closeNotifications();
  await sql?.end();
});

/** A shop connected by its own marketplace account's person, who owns it (what a first connect does). */
async function connectAs(email: string, accessToken: string) {
  const shop = await shops.connectShop({ email, name: "Loja", accessToken, scopesRequested: "basic_user_info" });
  const owner = await people.personForMarketplaceAccount(email, `Dona de ${email}`);
  await people.makeOwner(owner.id, shop.id);
  return { ...shop, ownerId: owner.id };
}

/** What the session cookie of a sign-in carries, as the Auth.js jwt callback builds it. */
async function signIn(personId: string, startedAt = Date.now()) {
  return { personId, sessionId: await sessions.startSession(personId), startedAt };
}

const shopOf = async (claims: Session.SessionClaims, shopId: string) => {
  const access = await session.shopAccessOf(claims, shopId);
  return typeof access === "string" ? access : access.role;
};

/** Opens a shop's live stream for `claims`, runs `end`, and resolves once the stream has ended (done). */
async function streamEndsWhen(shopId: string, claims: Session.SessionClaims, end: () => Promise<unknown>) {
  const controller = new AbortController();
  // What the route runs (app/api/s/[shopId]/live/route.ts).
  const response = await sse.openShopLiveStream(claims, shopId, new Request("http://localhost/api/live", { signal: controller.signal }));
  if (!response.ok) throw new Error(`the stream could not open: ${response.status}`);
  const reader = response.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain(": connected");
  await end();
  // The stream ends rather than staying open for the ended session.
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
  controller.abort();
}

describe("sessions", () => {
  it("open a shop only to its members, and only while it is connected; a reconnect keeps them", async () => {
    const shop = await connectAs("a@example.com", "token-1");
    const claims = await signIn(shop.ownerId);
    expect((await session.personOfSession(claims))?.id).toBe(shop.ownerId);
    expect(await shopOf(claims, shop.id)).toBe("owner");

    const other = await connectAs("a2@example.com", "token-a2");
    expect(await shopOf(await signIn(other.ownerId), shop.id)).toBe("not-a-member");

    const again = await connectAs("a@example.com", "token-2");
    expect(again.id).toBe(shop.id);
    expect(await shopOf(claims, shop.id)).toBe("owner");

    await shops.deleteConnection(shop.id);
    expect(await shopOf(claims, shop.id)).toBe("disconnected");
    expect((await session.personOfSession(claims))?.id).toBe(shop.ownerId);
  });

  it("end SESSION_MAX_AGE_SECONDS after sign-in whatever the activity", async () => {
    const shop = await connectAs("b@example.com", "token-b");
    const { env } = await import("@/lib/env");
    const startedAt = Date.now() - env.SESSION_MAX_AGE_SECONDS * 1000 - 1;
    const claims = await signIn(shop.ownerId, startedAt);
    expect(await session.personOfSession(claims)).toBeNull();
    expect(await session.personOfSession({ ...claims, startedAt: undefined })).toBeNull();
  });

  it("close their open live streams when the person is removed from the shop, or their role changes", async () => {
    const shop = await connectAs("c@example.com", "token-c1");
    const staff = await people.personForMarketplaceAccount("staff-c@example.com", "Staff");
    await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, 'manager')`, [shop.id, staff.id]);
    const claims = await signIn(staff.id);
    await streamEndsWhen(shop.id, claims, () => people.changeMembership(shop.id, staff.id, "viewer"));
    expect(await shopOf(claims, shop.id)).toBe("viewer");
    await streamEndsWhen(shop.id, claims, () => people.changeMembership(shop.id, staff.id, null));
    expect(await shopOf(claims, shop.id)).toBe("not-a-member");
    // Still signed in: their other shops stay open to them.
    expect((await session.personOfSession(claims))?.id).toBe(staff.id);
  });

  it("keep at least one owner per shop", async () => {
    const shop = await connectAs("c2@example.com", "token-c2");
    await expect(people.changeMembership(shop.id, shop.ownerId, "manager")).rejects.toBeInstanceOf(people.LastOwnerError);
    await expect(people.changeMembership(shop.id, shop.ownerId, null)).rejects.toBeInstanceOf(people.LastOwnerError);
    expect(await people.roleIn(shop.ownerId, shop.id)).toBe("owner");
  });

  it("end for good when signed out: a copy of the cookie no longer works, other browsers stay signed in", async () => {
    const shop = await connectAs("d@example.com", "token-d");
    const phone = await signIn(shop.ownerId);
    const laptop = await signIn(shop.ownerId);
    expect((await session.personOfSession(phone))?.id).toBe(shop.ownerId);

    await sessions.endSession(shop.ownerId, phone.sessionId);
    expect(await session.personOfSession(phone)).toBeNull();
    expect((await session.personOfSession(laptop))?.id).toBe(shop.ownerId);
    // The shop is untouched: signing in again works.
    expect(await shopOf(await signIn(shop.ownerId), shop.id)).toBe("owner");
  });

  it('end in every browser with "sign out everywhere", and only that person\'s', async () => {
    const shop = await connectAs("e@example.com", "token-e");
    const other = await connectAs("f@example.com", "token-f");
    const mine = [await signIn(shop.ownerId), await signIn(shop.ownerId), await signIn(shop.ownerId)];
    const theirs = await signIn(other.ownerId);

    expect(await sessions.endEverySession(shop.ownerId)).toBe(3);
    for (const claims of mine) expect(await session.personOfSession(claims)).toBeNull();
    expect((await session.personOfSession(theirs))?.id).toBe(other.ownerId);
  });

  it("a session cannot be ended by another person, and a cookie without a session row is signed out", async () => {
    const shop = await connectAs("g@example.com", "token-g");
    const other = await connectAs("h@example.com", "token-h");
    const claims = await signIn(shop.ownerId);
    await sessions.endSession(other.ownerId, claims.sessionId);
    expect((await session.personOfSession(claims))?.id).toBe(shop.ownerId);
    expect(await session.personOfSession({ ...claims, sessionId: undefined })).toBeNull();
    expect(await session.personOfSession({ ...claims, sessionId: "made-up" })).toBeNull();
    // A session row names its person: another person's id with it signs nobody in.
    expect(await session.personOfSession({ ...claims, personId: other.ownerId })).toBeNull();
  });

  it("a cookie issued before people existed (a seller id and its session row) signs in the shop's owner", async () => {
    const shop = await connectAs("k@example.com", "token-k");
    const { sessionId, startedAt } = await signIn(shop.ownerId);
    const legacy = { sellerId: shop.id, sessionId, startedAt };
    expect((await session.personOfSession(legacy))?.id).toBe(shop.ownerId);
    expect(await shopOf(legacy, shop.id)).toBe("owner");
  });

  it("close an open live stream when signed out", async () => {
    const shop = await connectAs("i@example.com", "token-i");
    const claims = await signIn(shop.ownerId);
    await streamEndsWhen(shop.id, claims, () => sessions.endSession(shop.ownerId, claims.sessionId));
  });

  it("past their absolute lifetime are pruned", async () => {
    const shop = await connectAs("j@example.com", "token-j");
    const { env } = await import("@/lib/env");
    const current = await signIn(shop.ownerId);
    const old = await signIn(shop.ownerId);
    await sql.query(`UPDATE "PersonSession" SET "startedAt" = "startedAt" - make_interval(secs => $2) WHERE id = $1`, [
      old.sessionId,
      env.SESSION_MAX_AGE_SECONDS + 60,
    ]);
    expect(await sessions.pruneEndedSessions()).toBeGreaterThanOrEqual(1);
    const { rows } = await sql.query<{ id: string }>(`SELECT id FROM "PersonSession" WHERE "personId" = $1`, [shop.ownerId]);
    expect(rows.map((row) => row.id)).toEqual([current.sessionId]);
  });
});

describe("identity", () => {
  it("finds a seller by the normalised e-mail, and never hands one seller's row to another spelling of it", async () => {
    const first = await shops.connectShop({
      email: "Mixed.Case@Example.com",
      name: "Loja",
      accessToken: "token-m1",
      scopesRequested: "basic_user_info",
    });
    const token = async () => (await import("@/lib/shops/tokens.server")).getAccessToken(first.id);
    expect(await token()).toBe("token-m1");
    // The same platform user again: same row, new token.
    const again = await shops.connectShop({
      email: "Mixed.Case@Example.com",
      name: "Loja",
      accessToken: "token-m2",
      scopesRequested: "basic_user_info",
    });
    expect(again.id).toBe(first.id);
    expect(await token()).toBe("token-m2");
    // Another spelling the platform gave: maybe another person. Refused; nothing changes.
    await expect(
      shops.connectShop({
        email: "mixed.case@example.com",
        name: "Loja",
        accessToken: "token-intruder",
        scopesRequested: "basic_user_info",
      }),
    ).rejects.toBeInstanceOf(shops.IdentityConflictError);
    expect(await token()).toBe("token-m2");
    const rows = await sql.query(`SELECT "email", "platformEmail" FROM "Seller" WHERE "id" = $1`, [first.id]);
    expect(rows.rows).toEqual([{ email: "mixed.case@example.com", platformEmail: "Mixed.Case@Example.com" }]);
  });

  it("an owner invitation dies with its maker's ownership; a manager's invitation does not", async () => {
    const shop = await connectAs("inv-owner@example.com", "token-inv");
    const other = await people.personForMarketplaceAccount("inv-other@example.com", "Outra Dona");
    await people.makeOwner(other.id, shop.id);
    const ownerInvite = await people.createInvitation(shop.id, "owner", shop.ownerId);
    const managerInvite = await people.createInvitation(shop.id, "manager", shop.ownerId);
    const stateOf = async (token: string) => (await people.readInvitation(token)).state;
    expect([await stateOf(ownerInvite.token), await stateOf(managerInvite.token)]).toEqual(["open", "open"]);

    // Demoted by the other owner: the ownership they handed out goes with theirs.
    await people.changeMembership(shop.id, shop.ownerId, "manager");
    expect([await stateOf(ownerInvite.token), await stateOf(managerInvite.token)]).toEqual(["revoked", "open"]);
    expect((await people.listPendingInvitations(shop.id)).map((invitation) => invitation.id)).toEqual([managerInvite.id]);
    const joiner = await people.personForMarketplaceAccount("inv-joiner@example.com", "Quem Entra");
    expect((await people.acceptInvitation(ownerInvite.token, joiner.id)).state).toBe("revoked");
    expect(await people.roleIn(joiner.id, shop.id)).toBeNull();

    // Demoted before invitations died with ownership (straight in the table, as an older version left it): refused too.
    const removedLater = await people.createInvitation(shop.id, "owner", other.id);
    await people.makeOwner(shop.ownerId, shop.id);
    await sql.query(`UPDATE "Membership" SET "role" = 'viewer' WHERE "sellerId" = $1 AND "personId" = $2`, [shop.id, other.id]);
    expect(await stateOf(removedLater.token)).toBe("revoked");
    expect(await people.listPendingInvitations(shop.id)).toHaveLength(1);
  });

  it("signing in with a marketplace account never gives one platform user the person of another spelt in other letter case", async () => {
    const shop = await connectAs("Owner.Case@Example.com", "token-oc");
    // The same platform user signs in again: the same person, an owner of the shop.
    const again = await people.personForMarketplaceAccount("Owner.Case@Example.com", "Dona");
    expect(again.id).toBe(shop.ownerId);
    // Another platform user whose address differs only in letter case: refused, with no session.
    await expect(people.personForMarketplaceAccount("owner.case@example.com", "Intrusa")).rejects.toBeInstanceOf(
      people.PersonIdentityConflictError,
    );
    const persons = await sql.query(`SELECT "marketplaceEmail", "platformEmail", "name" FROM "Person" WHERE "marketplaceEmail" = $1`, [
      "owner.case@example.com",
    ]);
    expect(persons.rows).toEqual([
      { marketplaceEmail: "owner.case@example.com", platformEmail: "Owner.Case@Example.com", name: "Dona de Owner.Case@Example.com" },
    ]);

    // A person from before the spelling was kept learns it at the next sign-in, and is held to it.
    await sql.query(`UPDATE "Person" SET "platformEmail" = NULL WHERE "id" = $1`, [shop.ownerId]);
    expect((await people.personForMarketplaceAccount("Owner.Case@Example.com", "Dona")).id).toBe(shop.ownerId);
    await expect(people.personForMarketplaceAccount("OWNER.CASE@example.com", "Intrusa")).rejects.toBeInstanceOf(
      people.PersonIdentityConflictError,
    );
  });
});
