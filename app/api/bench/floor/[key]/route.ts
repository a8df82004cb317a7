import { env } from "@/lib/env";

// The framework's floor for `npm run bench:webhooks`: the receiver's route shape (one dynamic
// segment), reading the body and answering 200 with nothing else, so that the receiver's own
// work (verify, dedupe, commit) is what the two figures differ by. 404 unless the benchmark
// turned it on with BENCH_FLOOR_ROUTE=1.
export async function POST(request: Request, { params }: RouteContext<"/api/bench/floor/[key]">) {
  if (env.BENCH_FLOOR_ROUTE !== "1") return new Response(null, { status: 404 });
  await params;
  await request.arrayBuffer();
  return Response.json({ received: true, duplicate: false });
}
