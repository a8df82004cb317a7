// The repository's npm workspaces, as folders relative to its root: the root package.json's
// "workspaces", a trailing `/*` read the way npm reads it (every folder there with a package.json).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * @param {string} root the repository's root folder
 * @returns {string[]} e.g. ["conformance", "packages/marketplace", "sandbox"]
 */
export function workspaceFolders(root) {
  /** @type {{ workspaces?: string[] }} */
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  return (manifest.workspaces ?? [])
    .flatMap((pattern) => {
      if (!pattern.endsWith("/*")) return [pattern];
      const parent = pattern.slice(0, -2);
      return readdirSync(path.join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(path.join(root, parent, entry.name, "package.json")))
        .map((entry) => `${parent}/${entry.name}`);
    })
    .sort();
}
