// GET /openapi.json and GET /docs (Swagger UI, every file served by the sandbox, so it works offline).
// A strict CSP: no inline script and no eval; inline styles stay, since Swagger UI's components set them.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Hono } from "hono";
import { escapeHtml } from "./html";
import { buildOpenApiDocument, OPENAPI_PATH } from "./openapi";

export const DOCS_PATH = "/docs";
export const DOCS_ASSETS_PATH = "/docs/assets";

export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Swagger UI's icons are data: URIs in its stylesheet.
  "img-src 'self' data:",
  // The document, and "Try it out" calls to this same sandbox.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": DOCS_CONTENT_SECURITY_POLICY,
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** Swagger UI's start-up, served as a file (the CSP allows no inline script). */
const DOCS_SCRIPT = `"use strict";
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // Swagger UI would otherwise send the document to an online validator.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
  });
});
`;

/** The files of the page: ours, and the two of swagger-ui-dist it needs. Nothing else is served. */
const ASSETS: Record<string, { type: string; source: { package: string } | { text: string } }> = {
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", source: { package: "swagger-ui-dist/swagger-ui-bundle.js" } },
  "swagger-ui.css": { type: "text/css; charset=utf-8", source: { package: "swagger-ui-dist/swagger-ui.css" } },
  "docs.js": { type: "text/javascript; charset=utf-8", source: { text: DOCS_SCRIPT } },
};

const requireFromHere = createRequire(import.meta.url);
const assetCache = new Map<string, Promise<Buffer>>();

function assetBytes(name: string, source: { package: string } | { text: string }): Promise<Buffer> {
  let bytes = assetCache.get(name);
  if (!bytes) {
    bytes = "text" in source ? Promise.resolve(Buffer.from(source.text)) : readFile(requireFromHere.resolve(source.package));
    // A failed read is not kept: the next request tries again.
    bytes.catch(() => assetCache.delete(name));
    assetCache.set(name, bytes);
  }
  return bytes;
}

function docsPage(): string {
  const asset = (name: string) => escapeHtml(`${DOCS_ASSETS_PATH}/${name}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marketplace API reference (sandbox)</title>
<link rel="stylesheet" href="${asset("swagger-ui.css")}">
</head>
<body>
<noscript><p>This reference needs JavaScript. The document itself is at <a href="${escapeHtml(OPENAPI_PATH)}">${escapeHtml(OPENAPI_PATH)}</a>.</p></noscript>
<div id="swagger-ui" data-openapi-url="${escapeHtml(OPENAPI_PATH)}"></div>
<script src="${asset("swagger-ui-bundle.js")}"></script>
<script src="${asset("docs.js")}"></script>
</body>
</html>`;
}

let documentJson: string | undefined;

export function openApiRoutes(): Hono {
  const routes = new Hono();

  routes.get(OPENAPI_PATH, (c) => {
    // Built once, when first asked for: it depends on nothing that changes while the sandbox runs.
    documentJson ??= JSON.stringify(buildOpenApiDocument());
    return c.body(documentJson, 200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" });
  });

  routes.get(DOCS_PATH, (c) => c.body(docsPage(), 200, { ...PAGE_HEADERS }));

  routes.get(`${DOCS_ASSETS_PATH}/:file`, async (c) => {
    const name = c.req.param("file");
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return c.text("No such file", 404);
    return c.body((await assetBytes(name, asset.source)) as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": asset.type,
      "Cache-Control": "public, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    });
  });

  return routes;
}
