import { labelsResponse } from "@/features/shipping";

export async function POST(request: Request, { params }: RouteContext<"/api/s/[shopId]/shipping/labels">): Promise<Response> {
  return labelsResponse(request, (await params).shopId);
}
