import { salesExportResponse } from "@/features/sales";

export async function GET(request: Request, { params }: RouteContext<"/api/s/[shopId]/sales/export">): Promise<Response> {
  return salesExportResponse(request, (await params).shopId);
}
