// Which declared responses of the OpenAPI document no sandbox test exercised (how to run it:
// sandbox/README.md, "OpenAPI document"). A report, not a test: it always exits 0.
import { readFileSync } from "node:fs";
import { buildOpenApiDocument, type JsonObject } from "./openapi";

function declaredResponses(document: JsonObject): string[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      Object.keys((operation.responses ?? {}) as JsonObject).map((status) => `${method.toUpperCase()} ${path} ${status}`),
    ),
  );
}

function main(file: string | undefined): void {
  if (!file) {
    console.error("usage: npx tsx sandbox/openapi-coverage.ts FILE (written by SANDBOX_OPENAPI_COVERAGE=FILE npx vitest run sandbox)");
    process.exitCode = 2;
    return;
  }
  const exercised = new Set(readFileSync(file, "utf8").split("\n").filter(Boolean));
  const declared = declaredResponses(buildOpenApiDocument());
  const missing = declared.filter((response) => !exercised.has(response));
  console.log(`${declared.length - missing.length} of ${declared.length} declared responses were exercised by the tests.`);
  if (missing.length > 0) console.log(`Never exercised:\n${missing.map((response) => `  ${response}`).join("\n")}`);
}

main(process.argv[2]);
