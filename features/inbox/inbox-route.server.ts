import "server-only";
import { unreadCount } from "@/features/inbox/inbox.server";
import { authorizePersonRequest } from "@/lib/auth/session.server";

/** GET /api/inbox: the signed-in person's unread count, which the header's bell shows. */
export async function inboxRoute(): Promise<Response> {
  const person = await authorizePersonRequest();
  if (person instanceof Response) return person;
  return Response.json({ unread: await unreadCount(person.id) }, { headers: { "Cache-Control": "no-store" } });
}
