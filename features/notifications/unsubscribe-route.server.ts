import "server-only";
import { unsubscribe } from "@/features/notifications/unsubscribe.server";
import { env } from "@/lib/env";

// /api/unsubscribe?t=…: the List-Unsubscribe target (RFC 8058). A mail client's one-click POST
// (body "List-Unsubscribe=One-Click") unsubscribes at once, signed out; so does the page's button.
// A GET never changes anything (link scanners follow links): it opens the page that asks.

const pageUrl = (token: string, done: boolean) =>
  `${env.PUBLIC_BASE_URL}/unsubscribe?t=${encodeURIComponent(token)}${done ? "&done=1" : ""}`;

export async function unsubscribeGetRoute(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get("t") ?? "";
  return Response.redirect(pageUrl(token, false), 303);
}

export async function unsubscribePostRoute(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get("t") ?? "";
  const body = await request.text().catch(() => "");
  if (body.length > 1_024) return new Response("Too large", { status: 413 });
  const form = new URLSearchParams(body);
  const outcome = await unsubscribe(token);
  // The page's own form: back to the page, which says what happened.
  if (form.get("from") === "page") return Response.redirect(pageUrl(token, outcome.state === "member"), 303);
  const status = outcome.state === "invalid" ? 400 : 200;
  return new Response(outcome.state === "invalid" ? "Invalid unsubscribe link" : "Unsubscribed", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
