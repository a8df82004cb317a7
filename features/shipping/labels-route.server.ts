import "server-only";
import { getTranslations } from "next-intl/server";
import { authorizeShopRequest } from "@/lib/auth/session.server";
import { badQuery } from "@/lib/tables/list-route.server";
import { problemResponse } from "@/lib/platform/problem-response";
import { getAccessToken } from "@/lib/shops/tokens.server";
import { env } from "@/lib/env";
import { requestLog } from "@/lib/log.server";
import { labelJobsOf } from "./picking-list";
import { labelsRunResponse } from "./labels-run.server";
import { loadPickingList } from "./picking-data.server";
import { selectionSchema } from "./selection";

// "Labels PDF" of the shipping page: the selected orders' labels (one per parcel, in the picking
// list's order) fetched from their `shipping.labels.url` and merged into one PDF, with progress,
// streamed back (features/shipping/labels-run.server.ts), one run per shop at a time and within the
// run's caps. Labels carry the recipient's name and address: the role must see customer data.
export async function labelsResponse(request: Request, shopId: string): Promise<Response> {
  const access = await authorizeShopRequest(shopId, "orders.customerData");
  if (access instanceof Response) return access;
  const shop = access.shop;
  const selection = selectionSchema.safeParse(await request.json().catch(() => null));
  if (!selection.success) return badQuery(selection.error);
  const loaded = await loadPickingList(shop, selection.data, { seesCustomers: true });
  if (!loaded.ok) return problemResponse(loaded.problem);
  const [accessToken, t] = await Promise.all([getAccessToken(shop.id), getTranslations("shipping.labels")]);
  const log = requestLog(request, { shopId: shop.id, component: "labels" });
  return labelsRunResponse({
    shopId: shop.id,
    jobs: labelJobsOf(loaded.data.list),
    skipped: loaded.data.list.skipped,
    truncated: loaded.data.truncated,
    fetcher: { platformBaseUrl: env.MARKETPLACE_BASE_URL, accessToken },
    title: t("documentTitle"),
    failureMessage: t("failed"),
    tooLargeMessage: t("tooLarge"),
    busyMessage: t("busy"),
    onError: (error) => log.error({ err: error }, "labels run stopped"),
  });
}
