import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname) },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "tests/e2e/**", "lib/generated/**"],
    environment: "node",
    // Four files at once on two cores: integration files mostly wait on the database and the
    // sandbox, and each has its own copy of the template database and free ports (docs/testing.md).
    maxWorkers: 4,
    // Four files at once share two cores: a test that waits on the database or the sandbox may
    // take longer than the usual 5 s. A guard against a hang, not a speed check.
    testTimeout: 30_000,
    // Starts (or reuses) the database server and migrates a template database for the run.
    globalSetup: ["tests/support/global-setup.ts"],
    // next-auth imports `next/server` without an extension, which Node's ESM resolver refuses;
    // letting Vite transform it resolves the import the way Next.js does.
    server: { deps: { inline: ["next-auth"] } },
    // `server-only` throws outside a React Server environment; tests run server code directly.
    alias: { "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts") },
  },
});
