// Minimal server-rendered pages for the browser-facing authorization step. Everything
// interpolated goes through escapeHtml.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2433;margin:0;padding:2rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem}label{display:block;margin:.75rem 0 .25rem}
input[type=text],input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
fieldset{margin:1rem 0;border:1px solid #ccd;border-radius:6px}fieldset label{display:flex;gap:.5rem;align-items:flex-start}
.error{background:#fde8e8;color:#8a1c1c;padding:.5rem .75rem;border-radius:4px}
.actions{display:flex;gap:.75rem;margin-top:1rem}button{padding:.5rem 1rem;font-size:1rem}
small{color:#556}code{font-size:.85em}
@media (max-width:48rem){body{padding:1rem .75rem}main{padding:1rem 1.25rem}input,button,fieldset label{min-height:2.75rem}input[type=checkbox]{min-height:0;width:1.5rem;height:1.5rem}}`;

/** `lang`: the page's language (the consent page follows Accept-Language: consent-words.ts). */
export function htmlDocument(title: string, body: string, lang = "en"): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

/** Headers of every HTML page: no caching of credentials forms, no framing, no scripts at all. */
export const HTML_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
};
