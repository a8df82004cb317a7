// `POST /_sandbox/deliveries/{id}/resend`: the console's Resend button over JSON (sandbox/README.md,
// "Control API").
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
