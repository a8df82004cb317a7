import { getCurrentSeller } from "@/lib/auth/session";
import { listWebhookEvents } from "@/lib/data/webhook-events";
import { eventFiltersFromSearchParams } from "@/lib/webhooks/event-filters";

// The event log table's data: the signed-in seller's events only.
export async function GET(request: Request) {
  const seller = await getCurrentSeller();
  if (!seller) return Response.json({ error: "Not signed in" }, { status: 401 });

  const filters = eventFiltersFromSearchParams(new URL(request.url).searchParams);
  if (!filters.success) {
    const issue = filters.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") ?? "query"}: ${issue?.message ?? "invalid"}` }, { status: 400 });
  }
  return Response.json(await listWebhookEvents(seller.id, filters.data));
}
