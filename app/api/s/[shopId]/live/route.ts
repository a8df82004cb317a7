import { auth } from "@/lib/auth/auth.server";
import { shopAccessOf } from "@/lib/auth/session.server";
import { can } from "@/lib/auth/roles";
import { liveStreamResponse } from "@/lib/webhooks/live-stream.server";

// Server-sent events for one shop's open pages (lib/webhooks/live-stream.server.ts). The stream ends
// with the session or membership it was opened with, so a sign-out, removal or role change closes it.
export async function GET(request: Request, { params }: RouteContext<"/api/s/[shopId]/live">) {
  const { shopId } = await params;
  const session = await auth();
  const access = await shopAccessOf(session, shopId);
  if (access === "signed-out") return Response.json({ error: "Not signed in" }, { status: 401 });
  if (typeof access === "string" || !can(access.role, "overview.view"))
    return Response.json({ error: "You do not have access to this" }, { status: 403 });
  const stillAllowed = async () => {
    const now = await shopAccessOf(session, shopId);
    return typeof now !== "string" && now.role === access.role;
  };
  return liveStreamResponse(shopId, request, stillAllowed, access.person.id);
}
