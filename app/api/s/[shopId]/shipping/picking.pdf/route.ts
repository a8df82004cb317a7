import { pickingPdfResponse } from "@/features/shipping";

export async function GET(request: Request, { params }: RouteContext<"/api/s/[shopId]/shipping/picking.pdf">): Promise<Response> {
  return pickingPdfResponse(request, (await params).shopId);
}
