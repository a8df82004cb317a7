export const dynamic = "force-dynamic";

// Liveness: the process serves requests. Touches nothing else, so a database outage does not
// get healthy instances restarted (readiness, /api/health/ready, takes them out of rotation).
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
