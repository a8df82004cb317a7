// Files the seeded data links to, served by the sandbox itself so they work with no internet:
// product pictures (`info.images`, `medias[].reference`), shipping labels (`labels.url`) and
// tracking pages (`tracking.url`). Not part of the platform's API; no token needed.
import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { z } from "zod";
import { objectIdSchema } from "@marketplace/api/schemas/common";
import type { Delivery, Order } from "@marketplace/api/schemas/order";
import type { SandboxContext } from "./context";
import { escapeHtml, HTML_HEADERS, htmlDocument } from "./html";
import { shippingLabelPdf } from "./label-pdf";
import type { SandboxStore } from "./store";

const PALETTE = ["#0f766e", "#1d4ed8", "#7c3aed", "#b45309", "#be123c", "#15803d", "#0369a1", "#a21caf"];

/** A square placeholder picture: the product's initials on a colour picked from its code. */
export function productImageSvg(sku: string, name: string): string {
  const colour = PALETTE[[...sku].reduce((sum, char) => sum + char.charCodeAt(0), 0) % PALETTE.length]!;
  const initials = name
    .split(/\s+/)
    .filter((word) => /^\p{Lu}/u.test(word))
    .slice(0, 2)
    .map((word) => word[0])
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240" role="img" aria-label="${escapeHtml(name)}">
<rect width="240" height="240" rx="16" fill="${colour}"/>
<text x="120" y="132" text-anchor="middle" font-family="system-ui, sans-serif" font-size="84" font-weight="600" fill="#fff">${escapeHtml(initials || "?")}</text>
<text x="120" y="212" text-anchor="middle" font-family="system-ui, sans-serif" font-size="18" fill="#fff" opacity="0.85">${escapeHtml(sku)}</text>
</svg>`;
}

/**
 * The delivery with this id, its order and seller. Deliveries have no index of their own; a scan
 * of every order is a few milliseconds even with 100,000 of them, which a label request can afford.
 */
export function findDelivery(store: SandboxStore, deliveryId: string): { order: Order; delivery: Delivery; userId: string } | undefined {
  for (const { order, userId } of store.orderById.values()) {
    const delivery = order.deliveries.find((candidate) => candidate.id === deliveryId);
    if (delivery) return { order, delivery, userId };
  }
  return undefined;
}

const labelParamsSchema = z.object({ deliveryId: objectIdSchema });

export function assetRoutes(ctx: SandboxContext) {
  const routes = new Hono();

  routes.get("/_assets/products/:file", (c) => {
    const match = /^([a-z0-9-]{1,50})\.svg$/.exec(c.req.param("file"));
    const product = match ? ctx.pools.catalogue.find((entry) => entry.sku.toLowerCase() === match[1]) : undefined;
    if (!product) return c.text("No such product picture", 404);
    return c.body(productImageSvg(product.sku, product.name), 200, {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=86400",
      // An SVG opened directly must not run anything.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    });
  });

  routes.get(
    "/_assets/labels/:deliveryId",
    // Fault `labelLatencyMs` delays every label answer, a refused one included, as a slow label server would.
    async (_c, next) => {
      const delay = ctx.faults.current.labelLatencyMs;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      await next();
    },
    zValidator("param", labelParamsSchema, (result, c) => {
      if (!result.success) return c.text("No such label", 404);
    }),
    async (c) => {
      const { deliveryId } = c.req.valid("param");
      if (ctx.faults.labelFails(deliveryId)) {
        return c.text("Label service unavailable (sandbox fault failLabels)", 503, { "Cache-Control": "no-store" });
      }
      const found = findDelivery(ctx.store, deliveryId);
      if (!found) return c.text("No such label", 404);
      const senderName = ctx.store.usersById.get(found.userId)?.name ?? "Loja";
      const pdf = await shippingLabelPdf(
        { orderId: found.order.id, delivery: found.delivery, senderName },
        { paddingBytes: ctx.faults.labelPadding() },
      );
      const tracking = found.delivery.shipping.tracking.number.replace(/[^A-Za-z0-9-]/g, "");
      // Copied into a plain ArrayBuffer-backed array, the only kind Hono's body type takes.
      return c.body(new Uint8Array(pdf), 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="etiqueta-${tracking}.pdf"`,
        // Faults can make the same label fail or answer later: no copy may stand in for the server.
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      });
    },
  );

  routes.get("/_assets/tracking/:number", (c) => {
    const number = c.req.param("number");
    if (!/^[A-Z]{2}\d{9}BR$/.test(number)) return c.text("No such tracking number", 404);
    const body = `<h1>Tracking ${escapeHtml(number)}</h1><p>The sandbox does not move parcels; move a delivery with <code>POST /_sandbox/orders/{id}/deliveries/{deliveryId}/status</code>.</p>`;
    return c.html(htmlDocument(`Tracking ${number}`, body), 200, HTML_HEADERS);
  });

  return routes;
}
