// The browser/server boundary, checked over the source: a client component ("use client") never
// imports a server-only module, not even for a type (a type from there is a wire or database
// shape; the browser gets the plain DTO modules' types instead: decision 0007).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(relative);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const files = ["app", "components", "lib"].flatMap(sourceFiles);
const text = new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), "utf8")]));

/** The file an `@/…` import names, if it is one of ours. */
function resolve(specifier: string): string | undefined {
  if (!specifier.startsWith("@/")) return undefined;
  const base = specifier.slice(2);
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => text.has(candidate));
}

// "use server" modules are not among them: importing one is how a client calls an action, and
// its state types are the action's contract.
const serverOnly = new Set(files.filter((file) => /^import "server-only";/m.test(text.get(file)!)));
const clientComponents = files.filter((file) => /^"use client";/m.test(text.get(file)!));

describe("client components", () => {
  it("exist (the check below has something to check)", () => {
    expect(clientComponents.length).toBeGreaterThan(20);
    expect(serverOnly.size).toBeGreaterThan(10);
  });

  it.each(clientComponents)("%s imports nothing server-only, not even a type", (file) => {
    const targets = [...text.get(file)!.matchAll(/^import\s[^"]*?from\s+"([^"]+)";/gm)].map((match) => resolve(match[1]!));
    expect(targets.filter((target) => target !== undefined && serverOnly.has(target))).toEqual([]);
  });
});
