// What the audit log keeps of a callback URL (issue 37). The dashboard's own receiver URL carries the
// receiver key, which only owners may read (Webhooks page); the audit log is open to managers, so it
// records "this dashboard's receiver" instead. A custom URL loses its credentials, query and fragment.

/** The path of this dashboard's receiver, before the key (app/api/webhooks/marketplace/[key]). */
export const RECEIVER_PATH_PREFIX = "/api/webhooks/marketplace/";

/** `url` null: none set. */
export type CallbackTarget = { receiver: "dashboard" } | { url: string | null };

/** Text that is not a URL is kept out too: it could be anything. */
export function callbackTargetOf(url: string | null): CallbackTarget {
  if (url === null) return { url: null };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url: "—" };
  }
  if (parsed.pathname.startsWith(RECEIVER_PATH_PREFIX)) return { receiver: "dashboard" };
  return { url: parsed.pathname === "/" ? parsed.origin : `${parsed.origin}${parsed.pathname}` };
}
