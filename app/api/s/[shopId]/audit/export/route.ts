import { auditExportResponse } from "@/features/audit";

export async function GET(request: Request, { params }: RouteContext<"/api/s/[shopId]/audit/export">): Promise<Response> {
  return auditExportResponse(request, (await params).shopId);
}
