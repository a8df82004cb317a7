import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "./import-graph";

// A module of the kernel (lib/) or of a feature (features/) stays small enough to read in one go:
// at most 400 lines, and at most 10 runtime exports (functions, classes, constants). Types do not
// count: they describe what the functions take and give. A feature's entries (index, components, client)
// only re-export, so they are exempt (docs/decisions/0017-feature-slices.md).

const MAX_LINES = 400;
const MAX_RUNTIME_EXPORTS = 10;
const ENTRY = /^features\/[^/]+\/(index|components|client)\.ts$/;

const exported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a module exports that exist at run time. */
function runtimeExports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  return source.statements.flatMap((statement) => {
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement))
      return exported(statement) ? [statement.name?.text ?? "default"] : [];
    if (ts.isVariableStatement(statement))
      return exported(statement) ? statement.declarationList.declarations.map((declaration) => declaration.name.getText(source)) : [];
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      if (!clause) return ["*"];
      if (ts.isNamespaceExport(clause)) return [clause.name.text];
      return clause.elements.filter((element) => !element.isTypeOnly).map((element) => element.name.text);
    }
    if (ts.isExportAssignment(statement)) return ["default"];
    return [];
  });
}

const modules = ["lib", "features"]
  .flatMap((folder) => sourceFiles(path.join(ROOT, folder), { tests: false, js: true }))
  .map((file) => path.relative(ROOT, file))
  .filter((file) => !ENTRY.test(file));

describe("module size", () => {
  it("counts what a module exports at run time, not its types", () => {
    const text = [
      "export const a = 1, b = 2;",
      "export function c() {}",
      "export class D {}",
      "export type E = string;",
      "export interface F {}",
      "const g = 1; export { g };",
      "export type { E as H };",
      "export { type F as I };",
    ].join("\n");
    expect(runtimeExports("x.ts", text)).toEqual(["a", "b", "c", "D", "g"]);
  });

  it(`keeps every module of lib/ and features/ within ${MAX_LINES} lines`, () => {
    const long = modules
      .map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it(`keeps every module of lib/ and features/ to ${MAX_RUNTIME_EXPORTS} runtime exports at most`, () => {
    const wide = modules
      .map((file) => ({ file, exports: runtimeExports(file, readFileSync(path.join(ROOT, file), "utf8")) }))
      .filter(({ exports }) => exports.length > MAX_RUNTIME_EXPORTS)
      .map(({ file, exports }) => `${file}: ${exports.length}`);
    expect(wide).toEqual([]);
  });
});
