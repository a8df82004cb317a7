import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Session from "@/lib/auth/session";
import type * as Bus from "@/lib/live/bus";
import type * as Sellers from "@/lib/data/sellers";
import type * as Sse from "@/lib/live/sse";
import { connect, useTestDatabase } from "../support/database";

// A session names the connection it was issued for (its epoch): disconnecting or reconnecting
// ends every earlier session, and their live streams close. (tests/e2e/connect.spec.ts walks the
// same through a browser.)
let sql: pg.Client;
let session: typeof Session;
let sellers: typeof Sellers;
let bus: typeof Bus;
let sse: typeof Sse;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  session = await import("@/lib/auth/session");
  sellers = await import("@/lib/data/sellers");
  bus = await import("@/lib/live/bus");
  sse = await import("@/lib/live/sse");
  await bus.startListening();
}, 60_000);

afterAll(async () => {
  await bus.closeLiveBus();
  await sql?.end();
});

const connectAs = (email: string, accessToken: string) => sellers.connectSeller({ email, name: "Loja", accessToken, scopesRequested: "basic_user_info" });

describe("sessions", () => {
  it("belong to the connection they were issued for: a reconnect or a disconnect ends them", async () => {
    const first = await connectAs("a@example.com", "token-1");
    const claims = { sellerId: first.id, sessionEpoch: first.sessionEpoch, startedAt: Date.now() };
    expect((await session.sellerOfSession(claims))?.id).toBe(first.id);

    const again = await connectAs("a@example.com", "token-2");
    expect(again.id).toBe(first.id);
    expect(await session.sellerOfSession(claims)).toBeNull();
    const fresh = { sellerId: again.id, sessionEpoch: again.sessionEpoch, startedAt: Date.now() };
    expect((await session.sellerOfSession(fresh))?.id).toBe(first.id);

    await sellers.deleteConnection(first.id);
    expect(await session.sellerOfSession(fresh)).toBeNull();
  });

  it("end SESSION_MAX_AGE_SECONDS after sign-in whatever the activity", async () => {
    const seller = await connectAs("b@example.com", "token-b");
    const { env } = await import("@/lib/env");
    const startedAt = Date.now() - env.SESSION_MAX_AGE_SECONDS * 1000 - 1;
    expect(await session.sellerOfSession({ sellerId: seller.id, sessionEpoch: seller.sessionEpoch, startedAt })).toBeNull();
    expect(await session.sellerOfSession({ sellerId: seller.id, sessionEpoch: seller.sessionEpoch })).toBeNull();
  });

  it("close their open live streams when the connection is renewed", async () => {
    const seller = await connectAs("c@example.com", "token-c1");
    const claims = { sellerId: seller.id, sessionEpoch: seller.sessionEpoch, startedAt: Date.now() };
    const controller = new AbortController();
    const response = await sse.liveStreamResponse(seller.id, new Request("http://localhost/api/live", { signal: controller.signal }), async () =>
      Boolean(await session.sellerOfSession(claims)),
    );
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(": connected");
    await connectAs("c@example.com", "token-c2");
    // The stream ends (done) rather than staying open for the old session.
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    controller.abort();
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
