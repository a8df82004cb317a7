// Files the seeded data links to, served by the sandbox itself so they work with no internet:
// product pictures (`info.images`, `medias[].reference`), shipping labels (`labels.url`) and
// tracking pages (`tracking.url`). Not part of the platform's API; no token needed.
import { Hono } from "hono";
import type { SandboxContext } from "./context";
import { escapeHtml, HTML_HEADERS, htmlDocument } from "./html";

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

  routes.get("/_assets/labels/:deliveryId", (c) => {
    const id = c.req.param("deliveryId");
    if (!/^[0-9a-f]{24}$/.test(id)) return c.text("No such label", 404);
    const body = `<h1>Shipping label</h1><p>Delivery <code>${escapeHtml(id)}</code></p><p><small>Sandbox label: print nothing, ship nothing.</small></p>`;
    return c.html(htmlDocument("Shipping label", body), 200, HTML_HEADERS);
  });

  routes.get("/_assets/tracking/:number", (c) => {
    const number = c.req.param("number");
    if (!/^[A-Z]{2}\d{9}BR$/.test(number)) return c.text("No such tracking number", 404);
    const body = `<h1>Tracking ${escapeHtml(number)}</h1><p>The sandbox does not move parcels; move a delivery with <code>POST /_sandbox/orders/{id}/deliveries/{deliveryId}/status</code>.</p>`;
    return c.html(htmlDocument(`Tracking ${number}`, body), 200, HTML_HEADERS);
  });

  return routes;
}
