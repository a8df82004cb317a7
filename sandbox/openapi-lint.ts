// `npm run lint:openapi`: Redocly's recommended rules over the OpenAPI document the sandbox serves
// (GET /openapi.json), written by the sandbox's own code to a temporary file. Offline: the rules
// come with the CLI (sandbox/redocly.yaml extends them), usage data and the update check are off,
// and it makes no connection (checked under strace, and passes with no network at all).
// @redocly/cli is a devDependency of the root package, found here through npm's hoisting.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "./openapi";

const CONFIG = fileURLToPath(new URL("./redocly.yaml", import.meta.url));

export interface OpenApiLintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  /** Where in the document, as a JSON pointer (`#/paths/~1v1.0~1webhooks/get`). */
  pointer: string;
}

export interface OpenApiLintResult {
  errors: number;
  warnings: number;
  problems: OpenApiLintProblem[];
}

interface RedoclyJson {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer?: string }[] }[];
}

function redoclyCli(): string {
  const manifest = createRequire(import.meta.url).resolve("@redocly/cli/package.json");
  return path.join(path.dirname(manifest), "bin", "cli.js");
}

/** Lints the document as the sandbox builds it now. */
export function lintOpenApiDocument(document: object = buildOpenApiDocument()): OpenApiLintResult {
  const dir = mkdtempSync(path.join(tmpdir(), "sandbox-openapi-"));
  try {
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(document, null, 2));
    const run = spawnSync(process.execPath, [redoclyCli(), "lint", file, "--config", CONFIG, "--format", "json"], {
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      maxBuffer: 64 * 1024 * 1024,
    });
    // Exit 1 means problems were found, reported on stdout; anything else without JSON is a failure to run.
    let report: RedoclyJson;
    try {
      report = JSON.parse(run.stdout) as RedoclyJson;
    } catch {
      throw new Error(`redocly lint did not run (exit ${String(run.status)}): ${run.error?.message ?? run.stderr}`);
    }
    return {
      errors: report.totals.errors,
      warnings: report.totals.warnings,
      problems: report.problems.map((problem) => ({
        ruleId: problem.ruleId,
        severity: problem.severity,
        message: problem.message,
        pointer: problem.location[0]?.pointer ?? "#",
      })),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const result = lintOpenApiDocument();
  for (const problem of result.problems)
    console.log(`${problem.severity.padEnd(5)} ${problem.ruleId}  ${problem.pointer}\n      ${problem.message}`);
  console.log(
    `redocly lint (recommended) of /openapi.json: ${result.errors} errors, ${result.warnings} warnings, in ${Math.round(performance.now() - started)} ms`,
  );
  process.exitCode = result.errors > 0 ? 1 : 0;
}
