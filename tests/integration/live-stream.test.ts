import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/people/roles";
import type * as Session from "@/lib/auth/session.server";
import type * as Notifications from "@/lib/db-notifications.server";
import type * as People from "@/lib/people/people.server";
import type * as Joining from "@/lib/people/invitations.server";
import type * as Invitations from "@/features/people/invitations.server";
import type * as Team from "@/features/people/team.server";
import type * as Sellers from "@/lib/shops/shops.server";
import type * as Sessions from "@/lib/people/sessions.server";
import type * as LiveStream from "@/features/webhooks/live/live-stream.server";
import { readLiveMessage } from "@/features/webhooks/live/live-messages";
import { parseWebhookBody } from "@/features/webhooks/parse";
import type { LiveMessage, LiveMessageType } from "@/features/webhooks/live/live-messages";
import type * as Queue from "@/features/webhooks/process/queue.server";
import type * as Store from "@/features/webhooks/store.server";
import { connect, useTestDatabase } from "../support/database";

// A shop's live stream (app/api/s/[shopId]/live/route.ts) carries to each connection only the
// kinds of message its role may see (decision 0010), live and when a reconnect replays what it
// missed. Messages are published as processing publishes them: a claimed event, then finishEvents'
// one statement that stores the message and NOTIFYs every instance.
let sql: pg.Client;
let shops: typeof Sellers;
// The person, joining, the team and its invitations: one handle, as the tests read them.
let people: typeof People & typeof Joining & typeof Invitations & typeof Team;
let sessions: typeof Sessions;
let store: typeof Store;
let queue: typeof Queue;
let notifications: typeof Notifications;
let live: typeof LiveStream;

beforeAll(async () => {
  const url = await useTestDatabase();
  sql = await connect(url);
  shops = await import("@/lib/shops/shops.server");
  people = {
    ...(await import("@/lib/people/people.server")),
    ...(await import("@/lib/people/invitations.server")),
    ...(await import("@/features/people/invitations.server")),
    ...(await import("@/features/people/team.server")),
  };
  sessions = await import("@/lib/people/sessions.server");
  store = await import("@/features/webhooks/store.server");
  queue = await import("@/features/webhooks/process/queue.server");
  notifications = await import("@/lib/db-notifications.server");
  live = await import("@/features/webhooks/live/live-stream.server");
  await notifications.startListening();
}, 60_000);

const opened: AbortController[] = [];
afterEach(() => {
  for (const browser of opened.splice(0)) browser.abort();
});

afterAll(async () => {
  await notifications.closeNotifications();
  await sql?.end();
});

async function connectShop(email: string) {
  const shop = await shops.connectShop({ email, name: "Loja", accessToken: `token-${email}`, scopesRequested: "basic_user_info" });
  const owner = await people.personForMarketplaceAccount(email, `Dona de ${email}`);
  await people.makeOwner(owner.id, shop.id);
  return { id: shop.id, ownerId: owner.id };
}

async function addMember(shopId: string, email: string, role: Role) {
  const person = await people.personForMarketplaceAccount(email, email);
  await sql.query(`INSERT INTO "Membership" ("sellerId", "personId", "role") VALUES ($1, $2, $3)`, [shopId, person.id, role]);
  return person.id;
}

/** What the session cookie of a sign-in carries, as the Auth.js jwt callback builds it. */
async function signIn(personId: string): Promise<Session.SessionClaims> {
  return { personId, sessionId: await sessions.startSession(personId), startedAt: Date.now() };
}

const PROCESSOR = "live-stream-test-instance";

/** What processing announces for an event of each kind (features/webhooks/process/process.server.ts). */
function messageOf(type: LiveMessageType, eventId: string): LiveMessage {
  switch (type) {
    case "order":
      return { type, eventId, domain: "order.order", status: "new", orderId: `order-${eventId}`, deliveryId: null };
    case "price":
      return { type, eventId, status: "updated", priceId: `price-${eventId}`, sku: "SKU-1" };
    case "sku":
      return { type, eventId, status: "created", skuId: `sku-${eventId}`, code: "SKU-1" };
    case "event":
      // An event processing could not apply to any table: only the event log shows it.
      return { type, eventId, domain: "portfolio.unknown", status: "new" };
  }
}

/** Receives one webhook event per type, claimed by this "instance", and records them processed in one batch. */
async function publish(shopId: string, types: LiveMessageType[]): Promise<LiveMessage[]> {
  const messages: LiveMessage[] = [];
  for (const type of types) {
    const rawBody = JSON.stringify({ data: { domain: `test.${type}`, status: "new", id: randomUUID() } });
    const event = await store.insertWebhookEvent({
      sellerId: shopId,
      receivedAt: new Date(),
      rawBody,
      bodyHash: randomUUID(),
      headers: {},
      parsed: parseWebhookBody(rawBody),
      claimedBy: PROCESSOR,
    });
    messages.push(messageOf(type, event.id));
  }
  await queue.finishEvents(
    PROCESSOR,
    messages.map((message) => ({ id: message.eventId, state: "processed" as const })),
    messages.map((message) => ({ sellerId: shopId, message })),
  );
  return messages;
}

interface Frame {
  id: string | null;
  event: string | null;
  data: string | null;
  comment: string | null;
}

/** Opens the stream as the route does, and reads it frame by frame as an EventSource would. */
async function openStream(claims: Session.SessionClaims | null, shopId: string, lastEventId?: string) {
  const browser = new AbortController();
  opened.push(browser);
  const headers = lastEventId ? { "last-event-id": lastEventId } : undefined;
  const response = await live.openShopLiveStream(
    claims,
    shopId,
    new Request(`http://localhost/api/s/${shopId}/live`, { headers, signal: browser.signal }),
  );
  if (!response.ok) return { response, next: async (): Promise<Frame | null> => null };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  /** Null once the stream has ended. */
  const next = async (): Promise<Frame | null> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const frame: Frame = { id: null, event: null, data: null, comment: null };
        for (const line of buffer.slice(0, end).split("\n")) {
          if (line.startsWith(":")) frame.comment = line.slice(1).trim();
          else if (line.startsWith("id: ")) frame.id = line.slice(4);
          else if (line.startsWith("event: ")) frame.event = line.slice(7);
          else if (line.startsWith("data: ")) frame.data = line.slice(6);
        }
        buffer = buffer.slice(end + 2);
        return frame;
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
    }
  };
  return { response, next };
}

type Stream = Awaited<ReturnType<typeof openStream>>;

/** The id the stream starts from: what a browser would send as Last-Event-ID if it dropped at once. */
async function connected(stream: Stream): Promise<string> {
  const frame = await stream.next();
  expect(frame?.comment).toBe("connected");
  return frame!.id!;
}

/**
 * The messages the stream sends up to and including `marker`, a message the stream's role may
 * see: what it sends before the marker is all it was going to send of what was published before.
 */
async function receivedUntil(stream: Stream, marker: LiveMessage): Promise<LiveMessage[]> {
  const received: LiveMessage[] = [];
  for (;;) {
    const frame = await stream.next();
    if (!frame) throw new Error(`the stream ended before ${marker.type} ${marker.eventId}`);
    if (frame.data === null) continue;
    const message = readLiveMessage(frame.data);
    expect(message?.type).toBe(frame.event);
    received.push(message!);
    if (message?.eventId === marker.eventId) return received;
  }
}

describe("a shop's live stream", () => {
  it("refuses a signed-out request (401) and a person who is not a member of the shop (403)", async () => {
    const shop = await connectShop("refused@example.com");
    const other = await connectShop("other-shop@example.com");

    const signedOut = await openStream(null, shop.id);
    expect(signedOut.response.status).toBe(401);
    expect(await signedOut.response.json()).toEqual({ error: "Not signed in" });

    const outsider = await openStream(await signIn(other.ownerId), shop.id);
    expect(outsider.response.status).toBe(403);
    expect(await outsider.response.json()).toEqual({ error: "You do not have access to this" });
  });

  it("sends each role only the kinds of message it may see, live and on a replay with Last-Event-ID", async () => {
    const shop = await connectShop("kinds@example.com");
    const operationsId = await addMember(shop.id, "packing@example.com", "operations");
    const ownerClaims = await signIn(shop.ownerId);
    const operationsClaims = await signIn(operationsId);

    const ownerStream = await openStream(ownerClaims, shop.id);
    const operationsStream = await openStream(operationsClaims, shop.id);
    const before = await connected(ownerStream);
    await connected(operationsStream);

    // The second order is the marker: operations may see it, and it comes after all the others.
    const published = await publish(shop.id, ["order", "price", "sku", "event", "order"]);
    const [order, , , , marker] = published as [LiveMessage, LiveMessage, LiveMessage, LiveMessage, LiveMessage];

    expect(await receivedUntil(ownerStream, marker)).toEqual(published);
    expect(await receivedUntil(operationsStream, marker)).toEqual([order, marker]);

    // Both reconnect having seen nothing since `before`: the replay is filtered the same way.
    const ownerAgain = await openStream(ownerClaims, shop.id, before);
    const operationsAgain = await openStream(operationsClaims, shop.id, before);
    await connected(ownerAgain);
    await connected(operationsAgain);
    expect(await receivedUntil(ownerAgain, marker)).toEqual(published);
    expect(await receivedUntil(operationsAgain, marker)).toEqual([order, marker]);
  });

  it("closes on a role change, and the stream the browser opens again carries the new role's kinds", async () => {
    const shop = await connectShop("promoted@example.com");
    const staffId = await addMember(shop.id, "promoted-staff@example.com", "operations");
    const claims = await signIn(staffId);

    const asOperations = await openStream(claims, shop.id);
    await connected(asOperations);
    await people.changeMembership(shop.id, staffId, "viewer");
    // The stream ends rather than carrying on with the kinds of the role it was opened with.
    while (await asOperations.next()) {}

    const asViewer = await openStream(claims, shop.id);
    await connected(asViewer);
    const published = await publish(shop.id, ["price", "sku", "event", "order"]);
    expect(await receivedUntil(asViewer, published.at(-1)!)).toEqual(published);
  });
});
