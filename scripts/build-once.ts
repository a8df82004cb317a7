// The e2e run's production build, made only when something that goes into it changed since the
// last one (scripts/lib/build-inputs.ts): `npm test` starts it beside the other checks, and the e2e
// web server (scripts/e2e-app-server.ts) then finds it made. E2E_SKIP_BUILD=1 skips the check too.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { E2E_APP_ENV } from "./lib/e2e-ports";
import { buildInputsHash } from "./lib/build-inputs";
import type { Environment } from "./lib/build-inputs";

const STAMP = path.join(".next", "e2e-build-inputs.sha256");

/** Whether the build in .next was made from exactly these inputs. */
export function buildIsCurrent(root: string, env: Environment): boolean {
  const stamp = path.join(root, STAMP);
  return (
    existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === buildInputsHash(root, env)
  );
}

/** Builds unless current; the stamp is the inputs' hash read before building, so a change made meanwhile builds again next time. */
export function buildOnce(env: NodeJS.ProcessEnv = { ...process.env, ...E2E_APP_ENV }): "built" | "current" {
  const root = process.cwd();
  if (env.E2E_SKIP_BUILD === "1") return "current";
  const hash = buildInputsHash(root, env);
  if (buildIsCurrent(root, env)) {
    console.log("The e2e build is current: none of its inputs changed since it was made.");
    return "current";
  }
  // `npm run build` regenerates the Prisma client first, so a schema change is never built stale.
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(path.join(root, STAMP), hash);
  return "built";
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) buildOnce();
