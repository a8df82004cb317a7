import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Which way the workspaces depend is decided by their package.json files, and the repository's own
// lint configuration (eslint.config.mjs) enforces it: each snippet is linted as if it were the file
// named, and must be refused by the rule named, or pass.

const ROOT = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

async function ruleIdsFor(file: string, specifier: string): Promise<string[]> {
  const code = `import * as imported from "${specifier}";\nexport const used = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("the package manifests, through lint", () => {
  it.each([
    ["sandbox/x.ts", "next/server", "import/no-extraneous-dependencies"],
    ["sandbox/x.ts", "@/lib/env.js", "no-restricted-imports"],
    ["sandbox/x.ts", "../lib/env.js", "import/no-relative-packages"],
    ["conformance/x.ts", "hono", "import/no-extraneous-dependencies"],
    ["conformance/x.ts", "../sandbox/app", "import/no-relative-packages"],
    ["packages/network-policy/src/x.ts", "zod", "import/no-extraneous-dependencies"],
    ["packages/marketplace/src/x.ts", "@marketplace/sandbox/testing", "import/no-extraneous-dependencies"],
    ["lib/x.ts", "@marketplace/sandbox/testing", "import/no-extraneous-dependencies"],
    ["lib/x.ts", "hono", "import/no-extraneous-dependencies"],
    ["scripts/x.ts", "../sandbox/testing", "import/no-relative-packages"],
    ["scripts/x.ts", "@/sandbox/testing", "no-restricted-imports"],
  ])("refuses %s importing %s (%s)", async (file, specifier, rule) => {
    expect(await ruleIdsFor(file, specifier)).toContain(rule);
  });

  it.each([
    ["sandbox/x.ts", "hono"],
    ["sandbox/x.ts", "@marketplace/network-policy"],
    ["sandbox/seed/x.ts", "../app"],
    ["conformance/x.test.ts", "@marketplace/sandbox/testing"],
    ["lib/x.ts", "@marketplace/network-policy"],
    ["lib/x.test.ts", "@marketplace/sandbox/testing"],
    ["scripts/x.ts", "@marketplace/sandbox/testing"],
  ])("lets %s import %s", async (file, specifier) => {
    expect(await ruleIdsFor(file, specifier)).toEqual([]);
  });
});
