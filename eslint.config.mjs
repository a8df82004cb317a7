import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { boundaries } from "./scripts/lint/boundaries.mjs";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      // Warns that the React Compiler skips components using TanStack Table; we do not run the
      // compiler, so the warning says nothing about this codebase.
      "react-hooks/incompatible-library": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Where code runs is in its name: *.server.ts modules import "server-only", and no client
    // component imports one (scripts/lint/boundaries.mjs).
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    plugins: { boundaries },
    rules: { "boundaries/server-only-path": "error", "boundaries/client-imports": "error" },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    "lib/generated/**",
    ".data/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
]);
