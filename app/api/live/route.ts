import { auth } from "@/lib/auth";
import { sellerOfSession } from "@/lib/auth/session";
import { liveStreamResponse } from "@/lib/live/sse";

// Server-sent events for the signed-in seller's open pages: one stream per tab, fed by every
// instance's webhook processing, with catch-up after a reconnect (lib/live/sse.ts). The stream
// ends with its session: a disconnect or reconnect anywhere closes it.
export async function GET(request: Request) {
  const session = await auth();
  const seller = await sellerOfSession(session);
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });
  return liveStreamResponse(seller.id, request, async () => (await sellerOfSession(session)) !== null);
}
