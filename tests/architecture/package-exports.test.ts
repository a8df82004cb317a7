import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { workspaceFolders } from "../../scripts/lint/workspaces.mjs";

// Every path a workspace's package.json exports is a file that exists (a pattern's folder, for
// `./x/*`): an import of an export that names nothing fails only where someone uses it.
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Each export's target, as a path below the workspace (conditions flattened). */
function targets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (exports && typeof exports === "object") return Object.values(exports).flatMap(targets);
  return [];
}

describe("workspace exports", () => {
  const workspaces = workspaceFolders(ROOT);

  it("reads every workspace", () => {
    expect(workspaces).toContain("packages/marketplace");
  });

  it.each(workspaces)("%s exports only paths that exist", (folder) => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, folder, "package.json"), "utf8")) as { exports?: unknown };
    const missing = targets(manifest.exports ?? {}).filter((target) => {
      const file = path.join(ROOT, folder, target);
      return target.includes("*") ? !existsSync(path.dirname(file)) : !existsSync(file);
    });
    expect(missing).toEqual([]);
  });
});
