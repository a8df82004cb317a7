import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent } from "../build-once";
import { buildInputsHash } from "./build-inputs";

// The e2e build is skipped only when nothing that goes into it changed: a changed, added or removed
// source file, the lockfile, the schema or an environment variable the build reads makes a new one.
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
const ENV = { PUBLIC_BASE_URL: "http://localhost:3100", HOME: "/root" };

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "build-inputs-"));
  write("lib/env.js", "const url = process.env.PUBLIC_BASE_URL; const key = process.env.AUTH_SECRET;");
  write("app/page.tsx", "export default function Page() { return null; }");
  write("lib/money.ts", "export const cents = 100;");
  write("package-lock.json", "{}");
  write("prisma/schema.prisma", "model Seller { id String @id }");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("buildInputsHash", () => {
  it("is the same for the same inputs, whatever else changes", () => {
    const before = buildInputsHash(root, ENV);
    write("lib/money.test.ts", "// a test is not built");
    write("lib/generated/prisma/client.ts", "// made from the schema");
    write("node_modules/next/index.js", "// dependencies are in the lockfile");
    write("tests/e2e/new.spec.ts", "// not an input");
    write("README.md", "# not an input");
    expect(buildInputsHash(root, { ...ENV, HOME: "/home/other" })).toBe(before);
  });

  it.each([
    ["a changed source file", () => write("lib/money.ts", "export const cents = 1000;")],
    ["a new file nobody committed yet", () => write("components/new-card.tsx", "export {};")],
    ["a feature's file", () => write("features/audit/describe.ts", "export const words = 1;")],
    ["a removed file", () => rmSync(path.join(root, "lib/money.ts"))],
    ["a file moved", () => (rmSync(path.join(root, "lib/money.ts")), write("lib/cash.ts", "export const cents = 100;"))],
    ["the lockfile", () => write("package-lock.json", '{"lockfileVersion":3}')],
    ["the schema", () => write("prisma/schema.prisma", "model Shop { id String @id }")],
  ])("changes with %s", (_what, change) => {
    const before = buildInputsHash(root, ENV);
    change();
    expect(buildInputsHash(root, ENV)).not.toBe(before);
  });

  it("changes with a variable lib/env.js reads, and only with those", () => {
    const before = buildInputsHash(root, ENV);
    expect(buildInputsHash(root, { ...ENV, PUBLIC_BASE_URL: "https://painel.example.com" })).not.toBe(before);
    expect(buildInputsHash(root, { ...ENV, AUTH_SECRET: "x".repeat(32) })).not.toBe(before);
    expect(buildInputsHash(root, { ...ENV, NODE_ENV: "development" })).not.toBe(before);
    expect(buildInputsHash(root, { ...ENV, TERM: "xterm" })).toBe(before);
  });
});

describe("buildIsCurrent", () => {
  it("holds for the build stamped with today's inputs, and not after a change or without a build", () => {
    expect(buildIsCurrent(root, ENV)).toBe(false);
    write(".next/BUILD_ID", "abc");
    write(".next/e2e-build-inputs.sha256", buildInputsHash(root, ENV));
    expect(buildIsCurrent(root, ENV)).toBe(true);
    write("app/page.tsx", "export default function Page() { return 1; }");
    expect(buildIsCurrent(root, ENV)).toBe(false);
    write(".next/e2e-build-inputs.sha256", buildInputsHash(root, ENV));
    rmSync(path.join(root, ".next/BUILD_ID"));
    expect(buildIsCurrent(root, ENV)).toBe(false);
  });
});
