import type { PlatformProblem } from "@/lib/platform/platform.server";

/** The UI reads `problem` and shows the matching notice (reconnect, grant a scope, or the error). */
export function problemResponse(problem: PlatformProblem): Response {
  const status = problem.kind === "reconnect" ? 401 : problem.kind === "missing_scope" ? 403 : 502;
  return Response.json({ error: problem.kind === "error" ? problem.message : problem.kind, problem }, { status });
}
