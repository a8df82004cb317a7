// Lint rules for what may import what, read by eslint.config.mjs:
// - `server-only-path`: a module is server-only exactly when its name says so (`*.server.ts`), so
//   that every import shows which side of the browser/server line it reaches.
// - `client-imports`: a module that reaches the browser imports no `*.server` module, not even a
//   type: a type from there is a wire or database shape the browser must not depend on. A module
//   reaches the browser when it is a client component ("use client") or when one imports it, directly
//   or through other modules (a "use server" module is not followed: its importers get references).

import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SERVER_FILE = /\.server\.(ts|tsx|js|mjs)$/;
const SERVER_SPECIFIER = /\.server(\.(ts|tsx|js|mjs))?$/;
const TEST_FILE = /\.test\.(ts|tsx)$/;

const SOURCE_FOLDERS = ["app", "components", "lib", "features"];
const SOURCE_FILE = /\.(ts|tsx|js|mjs)$/;
// Imports that put a module into the importer's bundle: type-only imports and exports are erased.
const VALUE_IMPORT =
  /(?:^|\n)\s*(?:import(?!\s+type\b)(?:[\s\w{},*]+from\s*)?|export(?!\s+type\b)\s*(?:\*|\{[^}]*\})\s*from\s*)["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
const RESOLVED = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx"];

/** @param {string} file */
function isFile(file) {
  return existsSync(file) && statSync(file).isFile();
}

/**
 * The project file `specifier` names from `from`, or null for a package.
 * @param {string} root
 * @param {string} from
 * @param {string} specifier
 */
function resolveImport(root, from, specifier) {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const suffix of RESOLVED) if (isFile(base + suffix)) return base + suffix;
  return null;
}

/** @param {string} folder @param {string[]} files */
function sourceFiles(folder, files = []) {
  if (!existsSync(folder)) return files;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") sourceFiles(full, files);
    } else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) files.push(full);
  }
  return files;
}

/** @type {Map<string, Set<string>>} */
const browserModulesByRoot = new Map();

/**
 * Every module of the project under `root` that a client component brings into the browser.
 * Computed once per lint run from the files on disk.
 * @param {string} root
 */
export function browserModules(root) {
  const known = browserModulesByRoot.get(root);
  if (known) return known;
  const sources = new Map(
    SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder))).map((file) => [file, readFileSync(file, "utf8")]),
  );
  const directive = (/** @type {string} */ text, /** @type {string} */ name) =>
    new RegExp(`^(\\s|//[^\\n]*\\n)*["']${name}["']`).test(text);
  const reached = new Set([...sources].filter(([, text]) => directive(text, "use client")).map(([file]) => file));
  const queue = [...reached];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.pop());
    const text = sources.get(file) ?? "";
    for (const match of text.matchAll(VALUE_IMPORT)) {
      const target = resolveImport(root, file, match[1] ?? match[2] ?? "");
      if (!target || reached.has(target) || !sources.has(target)) continue;
      if (directive(sources.get(target) ?? "", "use server")) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  browserModulesByRoot.set(root, reached);
  return reached;
}

/**
 * The directives at the top of a module ("use client", "use server").
 * @param {import("estree").Program} program
 */
function directives(program) {
  return program.body.flatMap((node) => (node.type === "ExpressionStatement" && "directive" in node ? [node.directive] : []));
}

/** @type {import("eslint").Rule.RuleModule} */
const serverOnlyPath = {
  meta: {
    type: "problem",
    messages: {
      unnamed: 'This module imports "server-only": name it *.server.ts so that its importers see it.',
      unmarked: 'A *.server module must import "server-only", so that a browser bundle that reaches it fails to build.',
    },
    schema: [],
  },
  create(context) {
    const filename = context.filename;
    if (TEST_FILE.test(filename)) return {};
    return {
      Program(program) {
        const marker = program.body.find((node) => node.type === "ImportDeclaration" && node.source.value === "server-only");
        if (marker && !SERVER_FILE.test(filename)) context.report({ node: marker, messageId: "unnamed" });
        if (!marker && SERVER_FILE.test(filename)) context.report({ node: program, messageId: "unmarked" });
      },
    };
  },
};

/** @type {import("eslint").Rule.RuleModule} */
const clientImports = {
  meta: {
    type: "problem",
    messages: {
      server: "A client component cannot import {{source}}: it is server-only (a type belongs in a plain module both sides import).",
      reached:
        "This module reaches the browser (a client component imports it), so it cannot import {{source}}: it is server-only (a type belongs in a plain module both sides import).",
    },
    schema: [],
  },
  create(context) {
    let client = false;
    const reached = browserModules(context.cwd).has(context.filename);
    /**
     * @param {import("eslint").Rule.Node} node
     * @param {unknown} source
     */
    const check = (node, source) => {
      if ((client || reached) && typeof source === "string" && SERVER_SPECIFIER.test(source))
        context.report({ node, messageId: client ? "server" : "reached", data: { source } });
    };
    return {
      Program(program) {
        client = directives(program).includes("use client");
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === "Literal" ? node.source.value : undefined),
    };
  },
};

export const boundaries = { rules: { "server-only-path": serverOnlyPath, "client-imports": clientImports } };
