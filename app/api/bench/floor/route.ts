import { env } from "@/lib/env";

// The framework's floor for `npm run bench:webhooks`: reads the body and answers 200, nothing
// else, so the receiver's own cost can be told apart from Next.js's. 404 unless the benchmark
// turned it on with BENCH_FLOOR_ROUTE=1.
export async function POST(request: Request) {
  if (env.BENCH_FLOOR_ROUTE !== "1") return new Response(null, { status: 404 });
  await request.arrayBuffer();
  return Response.json({ received: true });
}
