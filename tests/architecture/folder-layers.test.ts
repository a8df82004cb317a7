import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, ROOT, sourceFiles } from "./import-graph";

// Folders stack: no two folders of the kernel (lib/) and the features (features/) import each other
// both ways, and the modules at the root of lib/ (the database, env, log, …) import none of its
// sub-folders (docs/decisions/0017-feature-slices.md). Imports are read and resolved by TypeScript,
// type-only imports included; tests are left out.

const files = ["lib", "features"].flatMap((folder) => sourceFiles(path.join(ROOT, folder), { tests: false, js: true }));
const graph = importGraph(files);

/** A file's folder as the layers count it: `lib/<x>`, `features/<x>` (sub-folders included), or the root of lib/. */
function folderOf(file: string): string {
  const [top, second, ...rest] = path.relative(ROOT, file).split(path.sep);
  return rest.length === 0 && top === "lib" ? "lib/" : `${top}/${second}`;
}

/** "from → to" for every import between two folders. */
const crossings = [...graph].flatMap(([file, targets]) =>
  targets
    .filter((target) => folderOf(target) !== folderOf(file))
    .map((target) => ({
      from: folderOf(file),
      to: folderOf(target),
      file: path.relative(ROOT, file),
      target: path.relative(ROOT, target),
    })),
);

describe("folder layers", () => {
  it("reads the imports between folders", () => {
    // The features sit on the kernel: if this finds nothing, the test reads nothing.
    expect(crossings.some(({ from, to }) => from === "features/prices" && to === "lib/audit")).toBe(true);
  });

  it("has no two folders of lib/ and features/ importing each other", () => {
    const pairs = new Set(crossings.map(({ from, to }) => `${from} → ${to}`));
    const bothWays = [...pairs].filter((pair) => {
      const [from, to] = pair.split(" → ");
      return from! < to! && pairs.has(`${to} → ${from}`);
    });
    expect(bothWays).toEqual([]);
  });

  it("keeps the root of lib/ below its sub-folders", () => {
    expect(crossings.filter(({ from }) => from === "lib/").map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });
});
