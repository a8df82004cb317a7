import "server-only";
import { z } from "zod";
import { env } from "@/lib/env";
import { advanceScheduleClock } from "@/lib/schedule-clock.server";
import { tellDueDigests } from "@/features/notifications/digest.server";

// POST /api/test/clock {"advanceSeconds"}: the e2e run moves the clock of the seller's day
// (lib/schedule-clock.server.ts) beside the sandbox's, then the digests now due are written at
// once rather than at the delivery loop's next minute. 404 unless TEST_CLOCK_CONTROL=1.

const advance = z.object({
  advanceSeconds: z
    .number()
    .min(0)
    .max(366 * 86_400),
});

export async function testClockRoute(request: Request): Promise<Response> {
  if (env.TEST_CLOCK_CONTROL !== "1") return new Response(null, { status: 404 });
  const input = advance.safeParse(await request.json().catch(() => null));
  if (!input.success) return Response.json({ error: "advanceSeconds: a number of seconds, 0 or more" }, { status: 400 });
  const now = advanceScheduleClock(input.data.advanceSeconds);
  const digests = await tellDueDigests(now);
  return Response.json({ now: now.toISOString(), digests });
}
