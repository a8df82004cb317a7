// What a conformance run reports: one line per check (outcome, name, why) and a summary.

export type Outcome = "pass" | "fail" | "skip";

export interface CheckResult {
  /** Stable identifier, e.g. `orders.list.links`: what a report or a test refers to. */
  name: string;
  outcome: Outcome;
  /** One line: what was verified, how the answer differs from the spec, or why the check did not run. */
  reason: string;
}

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

const LABELS: Readonly<Record<Outcome, string>> = { pass: "PASS", fail: "FAIL", skip: "SKIP" };

/** Reasons quote platform answers: kept to one bounded line so a report stays readable. */
const MAX_REASON = 400;

export function oneLine(text: string, max = MAX_REASON): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `1 record`, `2 records`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export function formatResult(result: CheckResult): string {
  return `${LABELS[result.outcome]}  ${result.name} — ${oneLine(result.reason)}`;
}

export function summarize(results: readonly CheckResult[]): Summary {
  const count = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length;
  return { total: results.length, passed: count("pass"), failed: count("fail"), skipped: count("skip") };
}

/** The last line: FAILED when a check failed, INTERRUPTED when the run was stopped, else OK. */
export function formatSummary(summary: Summary, options: { interrupted?: boolean } = {}): string {
  const verdict = summary.failed > 0 ? "FAILED" : options.interrupted ? "INTERRUPTED" : "OK";
  return `${summary.total} checks: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped — ${verdict}`;
}
