import { auth } from "@/lib/auth/auth.server";
import { openShopLiveStream } from "@/features/webhooks";

// Server-sent events for one shop's open pages. openShopLiveStream authorises (overview.view), sends
// each role only the message types it may see, and ends the stream on a sign-out, removal or role change.
export async function GET(request: Request, { params }: RouteContext<"/api/s/[shopId]/live">) {
  const { shopId } = await params;
  return openShopLiveStream(await auth(), shopId, request);
}
