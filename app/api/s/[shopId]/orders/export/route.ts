import { ordersExportResponse } from "@/features/orders";

export async function GET(request: Request, { params }: RouteContext<"/api/s/[shopId]/orders/export">): Promise<Response> {
  return ordersExportResponse(request, (await params).shopId);
}
