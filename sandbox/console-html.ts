// HTML building blocks of the sandbox console. Hand-rolled rather than hono/html: that helper is typed
// as possibly asynchronous, so every fragment would need an await; ours is synchronous and escapes the same way.
import { escapeHtml, HTML_HEADERS } from "./html";

/** Markup that is already safe: built by `html` or from a constant. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((item: Interpolation) => render(item)).join("");
  if (value === null || value === undefined || value === false || value === true) return "";
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: strings and numbers are escaped; `SafeHtml` (and arrays of it) go in as they are; null, undefined and booleans render nothing. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? "");
  });
  return new SafeHtml(out);
}

export const CONSOLE_HOME = "/_sandbox/";

/** Where the console's own pages and form posts live (the delivery log aside, at CONSOLE_HOME). */
export const CONSOLE_PAGES_PREFIX = "/_sandbox/console/";

export type ConsoleSection = "deliveries" | "orders" | "faults" | "clock";

export const CONSOLE_SECTIONS: readonly { key: ConsoleSection; path: string; label: string }[] = [
  { key: "deliveries", path: CONSOLE_HOME, label: "Deliveries" },
  { key: "orders", path: "/_sandbox/console/orders", label: "Orders" },
  { key: "faults", path: "/_sandbox/console/faults", label: "Faults" },
  { key: "clock", path: "/_sandbox/console/clock", label: "Clock & reset" },
];

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2433;margin:0}
header{background:#1d2433;color:#fff;padding:.75rem 2rem;display:flex;gap:2rem;align-items:center;flex-wrap:wrap}
header strong{font-size:1.1rem}header nav{display:flex;gap:1rem}header a{color:#cfe0ff}header a[aria-current=page]{color:#fff;font-weight:600;text-decoration:none}
header .now{margin-left:auto;font-size:.9rem;color:#cfd6e4}
main{max-width:80rem;margin:1.5rem auto;padding:0 2rem}
section{background:#fff;border-radius:8px;padding:1rem 1.5rem;margin-bottom:1.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:0}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e3e6ec;vertical-align:top}
th{background:#f0f2f6}td form{margin:0}
.inline{display:flex;gap:.75rem;align-items:flex-end;flex-wrap:wrap}.inline label{display:flex;flex-direction:column;gap:.2rem;font-size:.85rem}
label.check{flex-direction:row!important;align-items:center}
input,select,textarea,button{font:inherit;padding:.35rem .5rem}textarea{width:100%;box-sizing:border-box}
button{cursor:pointer}
.notice{background:#e6f4ea;color:#1e4620;padding:.6rem .9rem;border-radius:4px}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem .9rem;border-radius:4px}
.field-error{color:#8a1c1c;font-size:.8rem}
.outcome{display:inline-block;padding:0 .4rem;border-radius:3px;font-size:.8rem;font-weight:600}
.outcome-delivered{background:#e6f4ea;color:#1e4620}.outcome-failed,.outcome-dropped{background:#fde8e8;color:#8a1c1c}
.outcome-pending,.outcome-delivering{background:#fff4d6;color:#6b4e00}
pre{white-space:pre-wrap;word-break:break-all;background:#f4f5f7;padding:.5rem;font-size:.8rem}
small,.muted{color:#3f4455}code{font-size:.85em;word-break:break-all}
.pager{display:flex;gap:1rem;align-items:center;margin-top:.75rem}
@media (max-width:48rem){
header{padding:.75rem 1rem;gap:.5rem 1rem}header nav{flex-wrap:wrap;gap:.25rem 1rem}header .now{margin-left:0}
header a{display:inline-block;padding:.6rem 0}
main{margin:1rem auto;padding:0 .75rem;overflow-wrap:anywhere}section{padding:.75rem 1rem}
.inline{flex-direction:column;align-items:stretch}.inline label{width:100%}
input,select,textarea,button,summary{min-height:2.75rem;max-width:100%;box-sizing:border-box}input[type=checkbox]{min-height:0;width:1.5rem;height:1.5rem}label.check{display:flex;align-items:center;gap:.4rem;min-height:2.75rem}
table,tbody,tr,td,tbody th{display:block;width:auto}thead{display:none}
tr{border:1px solid #e3e6ec;border-radius:6px;margin-bottom:.75rem;padding:.25rem .75rem}
td,tbody th{border:0;padding:.35rem 0}td[data-label]::before{content:attr(data-label);display:block;font-size:.75rem;font-weight:600;color:#3f4455}
}`;

export interface ConsolePageOptions {
  title: string;
  section: ConsoleSection;
  /** Sandbox time, shown in the header. */
  now: string;
  notice?: string | undefined;
  /** A message above the content; field errors are shown next to their fields by the page itself. */
  error?: string | undefined;
  body: SafeHtml;
}

export function consolePage(options: ConsolePageOptions): string {
  const nav = CONSOLE_SECTIONS.map(
    (section) =>
      html`<a href="${section.path}"${section.key === options.section ? new SafeHtml(' aria-current="page"') : ""}>${section.label}</a>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Sandbox console</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<header><strong>Sandbox console</strong><nav aria-label="Console">${nav}</nav><span class="now">Sandbox time: <time datetime="${options.now}">${options.now}</time></span></header>
<main>
<h1>${options.title}</h1>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ""}
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
${options.body}
</main>
</body>
</html>`.value;
}

/**
 * The consent page's headers (same CSP: no scripts, no framing, nothing loaded from elsewhere),
 * except the referrer policy: `no-referrer` makes a browser send `Origin: null` with the console's
 * own form posts, and the console's cross-site check (console.ts) needs the real origin.
 */
export const CONSOLE_HEADERS: Record<string, string> = { ...HTML_HEADERS, "Referrer-Policy": "same-origin" };

export function consoleResponse(status: number, page: string): Response {
  // A fresh headers object per response: @hono/node-server writes Content-Length into the init object.
  return new Response(page, { status, headers: { ...CONSOLE_HEADERS } });
}

/** POST-redirect-GET: 303 makes the browser follow with a GET. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

/** A field's error, placed after it (`id` is what the field's aria-describedby points at). */
export function fieldError(id: string, message: string | undefined): SafeHtml {
  return message ? html`<span class="field-error" id="${id}">${message}</span>` : html``;
}

export function describedBy(id: string, message: string | undefined): SafeHtml {
  return message ? html` aria-invalid="true" aria-describedby="${id}"` : html``;
}

export function options(values: readonly string[], selected: string | undefined, empty?: string): SafeHtml[] {
  const items = values.map((value) => html`<option value="${value}"${value === selected ? html` selected` : ""}>${value}</option>`);
  return empty === undefined ? items : [html`<option value=""${selected ? "" : html` selected`}>${empty}</option>`, ...items];
}
