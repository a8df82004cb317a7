import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, ROOT, sourceFiles } from "./import-graph";

// No two of our modules import each other, directly or around a circle, type-only imports
// included: a type two modules both need belongs in a third. Imports are read and resolved by
// TypeScript itself, with the project's compiler options (paths such as `@/`).

const FOLDERS = ["app", "components", "lib", "features", "sandbox", "conformance", "scripts", "packages", "i18n"];
const files = FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)));
/** Each of our modules and the modules of ours it imports (or re-exports from). */
const graph = importGraph(files);

/** Every circle in the graph, each once, as the list of its modules (Tarjan's strongly connected components). */
function circles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(ROOT, member));
      } while (member !== file);
      if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

describe("imports", () => {
  it("are resolved (the check below has a graph to check)", () => {
    expect(files.length).toBeGreaterThan(300);
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(edges).toBeGreaterThan(files.length);
  });

  it("form no circle", () => {
    expect(circles()).toEqual([]);
  });
});
