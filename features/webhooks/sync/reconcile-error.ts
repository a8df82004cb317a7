import type { PlatformProblem } from "@/lib/platform-problem";

/** A platform refusal that ends a shop's run. The problem is stored so the page words it in the reader's language; the message is for the log. */
export class ReconcileError extends Error {
  constructor(readonly problem: PlatformProblem) {
    super(problem.kind === "error" ? `platform: ${problem.status ?? "unreachable"} ${problem.message}` : `platform: ${problem.kind}`);
  }
}
