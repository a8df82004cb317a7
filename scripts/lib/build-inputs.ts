// What goes into the dashboard's production build, hashed, so the e2e run builds only when one of
// them changed (scripts/build-once.ts). Every file under the inputs counts, tracked or not; tests
// and generated code do not (the Prisma client is made from the schema, which counts).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export type Environment = Readonly<Record<string, string | undefined>>;

/** Folders and files of the build, relative to the project. */
export const BUILD_INPUTS = [
  "app",
  "components",
  "features",
  "lib",
  "i18n",
  "messages",
  "public",
  "types",
  "packages",
  "prisma/schema.prisma",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
] as const;

const SKIPPED_DIRECTORIES = new Set(["node_modules", "generated", ".next"]);
const isTest = (name: string) => /\.test\.tsx?$/.test(name);

function filesUnder(root: string, relative: string): string[] {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .sort()
    .flatMap((name) => {
      if (SKIPPED_DIRECTORIES.has(name) || isTest(name)) return [];
      return filesUnder(root, path.join(relative, name));
    });
}

/**
 * The environment the build reads: every variable lib/env.js names (it may decide what a static
 * page says), and NODE_ENV.
 */
function environmentOf(root: string, env: Environment): string[] {
  const names = new Set(readFileSync(path.join(root, "lib", "env.js"), "utf8").match(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g) ?? []);
  names.add("NODE_ENV");
  return [...names].sort().map((name) => `${name}=${env[name] ?? ""}`);
}

/** sha256 over each input file's path and bytes, in a fixed order, and the environment's values. */
export function buildInputsHash(root: string, env: Environment = process.env): string {
  const hash = createHash("sha256");
  for (const input of BUILD_INPUTS) {
    for (const file of filesUnder(root, input)) {
      hash.update(`${file.split(path.sep).join("/")}\0`);
      hash.update(readFileSync(path.join(root, file)));
      hash.update("\0");
    }
  }
  for (const line of environmentOf(root, env)) hash.update(`${line}\n`);
  return hash.digest("hex");
}
