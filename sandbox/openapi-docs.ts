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

/**
 * Swagger UI's start-up, served as a file (the CSP allows no inline script). Two repairs of its
 * markup, so that the page has no serious accessibility fault (axe, tests/e2e/sandbox-pages.spec.ts):
 * - each operation's summary is one button that expands it, and Swagger UI puts a link to the
 *   operation (its deep link) inside that button: a control within a control, too small to tap.
 *   The link is drawn without its href; the address still follows what is open (deepLinking).
 * - the servers list is a select with no name: it gets one.
 */
const DOCS_SCRIPT = `"use strict";
function accessibleMarkup(system) {
  var React = system.React;
  return {
    wrapComponents: {
      DeepLink: function (Original) {
        return function (props) {
          return React.createElement(Original, Object.assign({}, props, { enabled: false }));
        };
      },
    },
  };
}
function nameTheServerList(root) {
  var name = function () {
    var select = root.querySelector("select#servers:not([aria-label])");
    if (select) select.setAttribute("aria-label", "Server");
  };
  new MutationObserver(name).observe(root, { childList: true, subtree: true });
  name();
}
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  nameTheServerList(root);
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [accessibleMarkup],
    layout: "BaseLayout",
    // Swagger UI would otherwise send the document to an online validator.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
  });
});
`;

/**
 * Swagger UI's colours, darkened where their text is below WCAG's contrast (AAA, 7:1, as axe checks
 * it with every rule on): method badges, the Authorize button, links, the version badges, code in
 * descriptions, section titles. Loaded after swagger-ui.css, same specificity, so these win.
 */
const DOCS_STYLE = `
.swagger-ui .info .title small{background:#4b5160}
.swagger-ui .info .title small.version-stamp{background-color:#3d5a00}
.swagger-ui .info a,.swagger-ui .info .url{color:#1a4f8b}
.swagger-ui .markdown code,.swagger-ui .renderedMarkdown code{color:#5b0a9e}
.swagger-ui section.models h4,.swagger-ui .opblock-tag small,.swagger-ui .opblock .opblock-summary-description{color:#3b4151}
.swagger-ui .btn.authorize{border-color:#0b5e3a;color:#0b5e3a}
.swagger-ui .btn.authorize svg{color:#0b5e3a;fill:#0b5e3a}
.swagger-ui .opblock.opblock-get .opblock-summary-method{background:#1a4f8b}
.swagger-ui .opblock.opblock-post .opblock-summary-method{background:#0b5e3a}
.swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#9b1c1c}
.swagger-ui .opblock.opblock-put .opblock-summary-method{background:#7a4a00}
.swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#0e5a5e}
.swagger-ui .parameter__in,.swagger-ui .parameter__type,.swagger-ui .prop-format{color:#4b4b4b}
.swagger-ui .response-control-media-type__accept-message{color:#0b5e3a}
.swagger-ui .btn.cancel{border-color:#9b1c1c;color:#9b1c1c}
.swagger-ui .btn.execute{background-color:#1a4f8b;border-color:#1a4f8b}
`;

/** The files of the page: ours (docs.js, docs.css), and the two of swagger-ui-dist it needs. Nothing else is served. */
const ASSETS: Record<string, { type: string; source: { package: string } | { text: string } }> = {
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", source: { package: "swagger-ui-dist/swagger-ui-bundle.js" } },
  "swagger-ui.css": { type: "text/css; charset=utf-8", source: { package: "swagger-ui-dist/swagger-ui.css" } },
  "docs.js": { type: "text/javascript; charset=utf-8", source: { text: DOCS_SCRIPT } },
  "docs.css": { type: "text/css; charset=utf-8", source: { text: DOCS_STYLE } },
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
<link rel="stylesheet" href="${asset("docs.css")}">
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
