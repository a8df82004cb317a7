import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, ROOT, sourceFiles } from "./import-graph";

// A feature's index.ts is its server face: route handlers, background work and other features'
// server code import it, so it must bring no React component with it (a component pulls its
// client references, server actions included, into every bundle that imports the entry). Pages get
// components from components.ts (docs/decisions/0017-feature-slices.md).

const files = ["lib", "features", "components"].flatMap((folder) => sourceFiles(path.join(ROOT, folder), { tests: false, js: true }));
const graph = importGraph(files);
const entries = files.filter((file) => /features\/[^/]+\/index\.ts$/.test(file));

/** Every module `entry` loads, however indirectly. */
function reached(entry: string): string[] {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    for (const target of graph.get(queue.pop()!) ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return [...seen];
}

describe("feature entries", () => {
  it("finds the entries", () => {
    expect(entries.length).toBeGreaterThan(5);
  });

  it.each(entries.map((entry) => path.relative(ROOT, entry)))("%s loads no component", (entry) => {
    expect(
      reached(path.join(ROOT, entry))
        .filter((file) => file.endsWith(".tsx"))
        .map((file) => path.relative(ROOT, file)),
    ).toEqual([]);
  });
});
