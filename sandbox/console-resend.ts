// `POST /_sandbox/deliveries/{id}/resend`: the console's Resend button over JSON. A new delivery of
// the same event (same URL and body, signed when attempted like any delivery) is attempted at once
// with a fresh retry schedule; the original stays in the log as it was. 202 with the new delivery (as `GET /_sandbox/deliveries`
// lists it, plus `resendOf`); 404 for an id that is not in the log; 400 for one that is not an
// ObjectId. Like every /_sandbox/ route: off with SANDBOX_CONTROL=off, control token when exposed,
// 403 from another site (control.ts).
import { Hono } from "hono";
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import type { SandboxContext, SandboxEnv } from "./context";
import { notFound } from "./errors";
import { pathParams } from "./validation";
import type { WebhookDelivery } from "./webhooks";

/** A delivery as the control API lists it: with `attempt` (attempts made) and the last `responseStatus`. */
export function presentDelivery(delivery: WebhookDelivery) {
  return { ...delivery, attempt: delivery.attempts.length, responseStatus: delivery.attempts.at(-1)?.responseStatus ?? null };
}

/** Sends the logged delivery `id` again; the one function behind the JSON route and the console's button. */
export function resendDelivery(ctx: SandboxContext, id: string): WebhookDelivery {
  const copy = ctx.webhooks.resend(id);
  if (!copy) throw notFound(`Delivery ${id}`);
  return copy;
}

export const RESEND_PATH = "/_sandbox/deliveries/:id/resend";

export function deliveryResendRoutes(ctx: SandboxContext): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  routes.post(RESEND_PATH, pathParams(z.object({ id: objectIdSchema })), (c) => {
    const delivery = resendDelivery(ctx, c.req.valid("param").id);
    return c.json({ delivery: presentDelivery(delivery) }, 202);
  });
  return routes;
}
