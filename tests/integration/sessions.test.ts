import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Session from "@/lib/auth/session";
import type * as Bus from "@/lib/live/bus";
import type * as Sellers from "@/lib/data/sellers";
import type * as Sessions from "@/lib/data/sessions";
import type * as Sse from "@/lib/live/sse";
import { connect, useTestDatabase } from "../support/database";

// A session names the connection it was issued for (its epoch): disconnecting or reconnecting
// ends every earlier session, and their live streams close. (tests/e2e/connect.spec.ts walks the
// same through a browser.)
let sql: pg.Client;
let session: typeof Session;
let sellers: typeof Sellers;
let sessions: typeof Sessions;
let bus: typeof Bus;
let sse: typeof Sse;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  session = await import("@/lib/auth/session");
  sellers = await import("@/lib/data/sellers");
  sessions = await import("@/lib/data/sessions");
  bus = await import("@/lib/live/bus");
  sse = await import("@/lib/live/sse");
  await bus.startListening();
}, 60_000);

afterAll(async () => {
  await bus.closeLiveBus();
  await sql?.end();
});

const connectAs = (email: string, accessToken: string) => sellers.connectSeller({ email, name: "Loja", accessToken, scopesRequested: "basic_user_info" });

/** What the session cookie of a sign-in carries, as the Auth.js jwt callback builds it. */
async function signIn(seller: { id: string; sessionEpoch: string }, startedAt = Date.now()) {
  return { sellerId: seller.id, sessionId: await sessions.startSession(seller.id), sessionEpoch: seller.sessionEpoch, startedAt };
}

/** Opens a live stream for `claims`, runs `end`, and resolves once the stream has ended (done). */
async function streamEndsWhen(sellerId: string, claims: Session.SessionClaims, end: () => Promise<unknown>) {
  const controller = new AbortController();
  const response = await sse.liveStreamResponse(sellerId, new Request("http://localhost/api/live", { signal: controller.signal }), async () =>
    Boolean(await session.sellerOfSession(claims)),
  );
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
  it("belong to the connection they were issued for: a reconnect or a disconnect ends them", async () => {
    const first = await connectAs("a@example.com", "token-1");
    const claims = await signIn(first);
    expect((await session.sellerOfSession(claims))?.id).toBe(first.id);

    const again = await connectAs("a@example.com", "token-2");
    expect(again.id).toBe(first.id);
    expect(await session.sellerOfSession(claims)).toBeNull();
    const fresh = await signIn(again);
    expect((await session.sellerOfSession(fresh))?.id).toBe(first.id);

    await sellers.deleteConnection(first.id);
    expect(await session.sellerOfSession(fresh)).toBeNull();
  });

  it("end SESSION_MAX_AGE_SECONDS after sign-in whatever the activity", async () => {
    const seller = await connectAs("b@example.com", "token-b");
    const { env } = await import("@/lib/env");
    const startedAt = Date.now() - env.SESSION_MAX_AGE_SECONDS * 1000 - 1;
    const claims = await signIn(seller, startedAt);
    expect(await session.sellerOfSession(claims)).toBeNull();
    expect(await session.sellerOfSession({ ...claims, startedAt: undefined })).toBeNull();
  });

  it("close their open live streams when the connection is renewed", async () => {
    const seller = await connectAs("c@example.com", "token-c1");
    await streamEndsWhen(seller.id, await signIn(seller), () => connectAs("c@example.com", "token-c2"));
  });

  it("end for good when signed out: a copy of the cookie no longer works, other browsers stay signed in", async () => {
    const seller = await connectAs("d@example.com", "token-d");
    const phone = await signIn(seller);
    const laptop = await signIn(seller);
    expect((await session.sellerOfSession(phone))?.id).toBe(seller.id);

    await sessions.endSession(seller.id, phone.sessionId);
    expect(await session.sellerOfSession(phone)).toBeNull();
    expect((await session.sellerOfSession(laptop))?.id).toBe(seller.id);
    // The connection is untouched: signing in again works.
    expect((await session.sellerOfSession(await signIn(seller)))?.id).toBe(seller.id);
  });

  it("end in every browser with \"sign out everywhere\", and only that seller's", async () => {
    const seller = await connectAs("e@example.com", "token-e");
    const other = await connectAs("f@example.com", "token-f");
    const mine = [await signIn(seller), await signIn(seller), await signIn(seller)];
    const theirs = await signIn(other);

    expect(await sessions.endEverySession(seller.id)).toBe(3);
    for (const claims of mine) expect(await session.sellerOfSession(claims)).toBeNull();
    expect((await session.sellerOfSession(theirs))?.id).toBe(other.id);
  });

  it("a session cannot be ended by another seller, and a cookie without a session row is signed out", async () => {
    const seller = await connectAs("g@example.com", "token-g");
    const other = await connectAs("h@example.com", "token-h");
    const claims = await signIn(seller);
    await sessions.endSession(other.id, claims.sessionId);
    expect((await session.sellerOfSession(claims))?.id).toBe(seller.id);
    // A cookie issued before sessions had rows (no sessionId), or naming a made-up one.
    expect(await session.sellerOfSession({ ...claims, sessionId: undefined })).toBeNull();
    expect(await session.sellerOfSession({ ...claims, sessionId: "made-up" })).toBeNull();
  });

  it("close an open live stream when signed out", async () => {
    const seller = await connectAs("i@example.com", "token-i");
    const claims = await signIn(seller);
    await streamEndsWhen(seller.id, claims, () => sessions.endSession(seller.id, claims.sessionId));
  });

  it("past their absolute lifetime are pruned", async () => {
    const seller = await connectAs("j@example.com", "token-j");
    const { env } = await import("@/lib/env");
    const current = await signIn(seller);
    const old = await signIn(seller);
    await sql.query(`UPDATE "SellerSession" SET "startedAt" = "startedAt" - make_interval(secs => $2) WHERE id = $1`, [old.sessionId, env.SESSION_MAX_AGE_SECONDS + 60]);
    expect(await sessions.pruneEndedSessions()).toBeGreaterThanOrEqual(1);
    const { rows } = await sql.query<{ id: string }>(`SELECT id FROM "SellerSession" WHERE "sellerId" = $1`, [seller.id]);
    expect(rows.map((row) => row.id)).toEqual([current.sessionId]);
  });
});

describe("identity", () => {
  it("finds a seller by the normalised e-mail, and never hands one seller's row to another spelling of it", async () => {
    const first = await connectAs("Mixed.Case@Example.com", "token-m1");
    const token = async () => sellers.getAccessToken(first.id);
    expect(await token()).toBe("token-m1");
    // The same platform user again: same row, new token.
    const again = await connectAs("Mixed.Case@Example.com", "token-m2");
    expect(again.id).toBe(first.id);
    expect(await token()).toBe("token-m2");
    // Another spelling the platform gave: maybe another person. Refused; nothing changes.
    await expect(connectAs("mixed.case@example.com", "token-intruder")).rejects.toBeInstanceOf(sellers.IdentityConflictError);
    expect(await token()).toBe("token-m2");
    const rows = await sql.query(`SELECT "email", "platformEmail" FROM "Seller" WHERE "id" = $1`, [first.id]);
    expect(rows.rows).toEqual([{ email: "mixed.case@example.com", platformEmail: "Mixed.Case@Example.com" }]);
  });
});
