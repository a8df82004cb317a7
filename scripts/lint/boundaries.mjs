// Lint rules for what may import what, read by eslint.config.mjs:
// - `server-only-path`: a module is server-only exactly when its name says so (`*.server.ts`), so
//   that every import shows which side of the browser/server line it reaches.
// - `client-imports`: a client component ("use client") imports no `*.server` module, not even a
//   type: a type from there is a wire or database shape the browser must not depend on.

const SERVER_FILE = /\.server\.(ts|tsx|js|mjs)$/;
const SERVER_SPECIFIER = /\.server(\.(ts|tsx|js|mjs))?$/;
const TEST_FILE = /\.test\.(ts|tsx)$/;

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
    },
    schema: [],
  },
  create(context) {
    let client = false;
    /**
     * @param {import("eslint").Rule.Node} node
     * @param {unknown} source
     */
    const check = (node, source) => {
      if (client && typeof source === "string" && SERVER_SPECIFIER.test(source))
        context.report({ node, messageId: "server", data: { source } });
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
