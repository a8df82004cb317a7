import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

// The project's own modules and what each imports, read and resolved by TypeScript with the
// project's compiler options (paths such as `@/`), type-only imports included. For the
// architecture tests: no circles, folders in layers, light feature entries.

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The .ts, .tsx (and .js) files below `folder`, generated code, dependencies, builds and declarations left out. */
export function sourceFiles(folder: string, options: { tests?: boolean; js?: boolean } = {}): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return ["generated", "node_modules", "dist"].includes(entry.name) ? [] : sourceFiles(full, options);
    if (!(options.js ? /\.(ts|tsx|js)$/ : /\.(ts|tsx)$/).test(entry.name) || entry.name.endsWith(".d.ts")) return [];
    return options.tests === false && /\.test\.tsx?$/.test(entry.name) ? [] : [full];
  });
}

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(ROOT, "tsconfig.json"),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
)!;

/** Each of `files` and the files among them it imports (or re-exports from). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const ours = new Set(files);
  return new Map(
    files.map((file) => {
      const imports = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
      const targets = imports
        .map((entry) => ts.resolveModuleName(entry.fileName, file, config.options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((target): target is string => target !== undefined && ours.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}
