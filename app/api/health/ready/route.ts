import { checkReadiness } from "@/lib/health";

export const dynamic = "force-dynamic";

// Readiness for a load balancer: 200 when the database is reachable and fully migrated, else 503
// with what is wrong. Public and read-only: it names no seller and no secret.
export async function GET() {
  const readiness = await checkReadiness();
  return Response.json(
    { status: readiness.ready ? "ready" : "not ready", database: readiness.database, migrations: readiness.migrations },
    { status: readiness.ready ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}
