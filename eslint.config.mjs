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
  {
    // Which way packages depend: the platform contract depends on nothing of ours, and the sandbox
    // and the conformance kit reach the platform's contract only through it, never the dashboard.
    files: ["packages/**/*.{ts,tsx,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|\\.\\./\\.\\./\\.\\./)",
              message: "A package imports only itself, its own dependencies and other packages by name.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["sandbox/**/*.{ts,tsx}", "conformance/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/(lib|app|components)/",
              message: "The sandbox and the kit use the platform's contract (@marketplace/api), never the dashboard's code.",
            },
          ],
        },
      ],
    },
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
