import "server-only";
import { z } from "zod";
import { DB_NOW, pool } from "@/lib/pg-pool.server";
import { authorizePersonRequest } from "@/lib/auth/session.server";
import { endpointRefusal } from "@/features/notifications/push/push-send.server";

// /api/push/subscriptions (issue 41): the browser's PushSubscription, registered for the signed-in
// person (POST) or removed (DELETE). An endpoint is any signed-in person's word: it is checked now
// (https, at most 2,048 characters) and again, with its addresses, before every send.

/** Devices a person may register: each new order is one push per device. */
export const MAX_DEVICES_PER_PERSON = 10;

const base64url = (bytes: number) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((value) => Buffer.from(value, "base64url").length === bytes, `must be ${bytes} bytes, base64url`);

const subscriptionSchema = z.object({
  endpoint: z.string().min(1).max(2_048),
  keys: z.object({
    // An uncompressed P-256 point (RFC 8291 3.1).
    p256dh: base64url(65).refine((value) => Buffer.from(value, "base64url")[0] === 4, "must be an uncompressed P-256 point"),
    auth: base64url(16),
  }),
});

const removalSchema = z.object({ endpoint: z.string().min(1).max(2_048) });

const answer = (body: unknown, status = 200) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length > 8_192) throw new Error("too large");
  return JSON.parse(text);
}

export async function registerPushRoute(request: Request): Promise<Response> {
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  let parsed;
  try {
    parsed = subscriptionSchema.safeParse(await readJson(request));
  } catch {
    return answer({ error: "The body must be a JSON push subscription" }, 400);
  }
  if (!parsed.success)
    return answer({ error: "Not a push subscription", issues: parsed.error.issues.map((issue) => issue.path.join(".")) }, 400);
  const refusal = endpointRefusal(parsed.data.endpoint);
  if (refusal) return answer({ error: `The push endpoint is refused: ${refusal}` }, 422);
  const { endpoint, keys } = parsed.data;
  // A device handed from one person to another (signed out, signed in as someone else) moves with
  // its endpoint; a person's oldest devices beyond the limit are forgotten.
  await pool.query({
    name: "push_subscription_upsert",
    text: `
      WITH saved AS (
        INSERT INTO "PushSubscription" ("id", "personId", "endpoint", "p256dh", "auth", "createdAt")
        VALUES (gen_random_uuid()::text, $1, $2, $3, $4, ${DB_NOW})
        ON CONFLICT ("endpoint") DO UPDATE SET "personId" = excluded."personId", "p256dh" = excluded."p256dh", "auth" = excluded."auth"
        RETURNING "id"
      )
      DELETE FROM "PushSubscription" WHERE "personId" = $1 AND "id" NOT IN (SELECT "id" FROM saved) AND "id" IN (
        SELECT "id" FROM "PushSubscription" WHERE "personId" = $1 ORDER BY "createdAt" DESC OFFSET $5
      )`,
    values: [person.id, endpoint, keys.p256dh, keys.auth, MAX_DEVICES_PER_PERSON - 1],
  });
  return answer({ registered: true }, 201);
}

export async function removePushRoute(request: Request): Promise<Response> {
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  let parsed;
  try {
    parsed = removalSchema.safeParse(await readJson(request));
  } catch {
    return answer({ error: "The body must be JSON with the endpoint to remove" }, 400);
  }
  if (!parsed.success) return answer({ error: "The body must name the endpoint to remove" }, 400);
  // Only the person's own device.
  const { rowCount } = await pool.query(`DELETE FROM "PushSubscription" WHERE "personId" = $1 AND "endpoint" = $2`, [
    person.id,
    parsed.data.endpoint,
  ]);
  return answer({ removed: (rowCount ?? 0) > 0 });
}
