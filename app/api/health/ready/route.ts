import { checkReadiness } from "@/lib/health.server";
import { isStopping } from "@/lib/lifecycle.server";

export const dynamic = "force-dynamic";

// Readiness for a load balancer: 200 when the database is reachable and fully migrated, else 503
// with what is wrong; 503 "stopping" once the instance is shutting down (SIGTERM), so a load
// balancer polling over a connection still open takes it out of rotation. Public and read-only: it
// names no seller and no secret.
export async function GET() {
  if (isStopping()) return Response.json({ status: "stopping" }, { status: 503, headers: { "cache-control": "no-store" } });
  const readiness = await checkReadiness();
  return Response.json(
    { status: readiness.ready ? "ready" : "not ready", database: readiness.database, migrations: readiness.migrations },
    { status: readiness.ready ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}
