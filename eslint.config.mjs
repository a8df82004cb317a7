import path from "node:path";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { boundaries } from "./scripts/lint/boundaries.mjs";
import { featureNames, featureZones } from "./scripts/lint/features.mjs";
import { workspaceFolders } from "./scripts/lint/workspaces.mjs";

const ROOT = import.meta.dirname;
// packages/*, sandbox, conformance: each owns its dependencies (its package.json).
const WORKSPACES = workspaceFolders(ROOT);
const IN_WORKSPACES = WORKSPACES.map((folder) => `${folder}/**`);
const WORKSPACE_ROOTS = [...new Set(WORKSPACES.map((folder) => folder.split("/")[0]))];
/** The features each feature may import, through their entries (docs/decisions/0017-feature-slices.md). */
export const FEATURE_DEPENDENCIES = {
  notifications: ["prices"],
  overview: ["shipping", "webhooks"],
  people: ["notifications"],
  sales: ["prices"],
  settings: ["notifications", "prices"],
  shipping: ["orders"],
  shops: ["prices"],
  skus: ["prices"],
};

/**
 * A workspace's files import only what its own package.json declares.
 * @param {string} folder
 * @returns {import("eslint").Linter.Config}
 */
function checkedAgainstOwnManifest(folder) {
  return {
    files: [`${folder}/**/*.{ts,tsx,js,mjs}`],
    rules: { "import/no-extraneous-dependencies": ["error", { packageDir: path.join(ROOT, folder) }] },
  };
}

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
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "features/**/*.{ts,tsx}"],
    plugins: { boundaries },
    rules: { "boundaries/server-only-path": "error", "boundaries/client-imports": "error" },
  },
  {
    // Feature slices (features/<name>/): the kernel (lib/) and the UI kit (components/) import no
    // feature; the app and other features reach one only through its entry (scripts/lint/features.mjs).
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "features/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "import/no-restricted-paths": ["error", { zones: featureZones(featureNames(ROOT), FEATURE_DEPENDENCIES) }] },
  },
  {
    // Which way packages depend is in their manifests: a file imports only what its own
    // package.json declares (the dashboard's is the root one), and another package only by its
    // name, never by a relative path into its folder.
    files: ["**/*.{ts,tsx,js,mjs}"],
    rules: { "import/no-relative-packages": "error" },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: IN_WORKSPACES,
    // Workspace folders hold packages, not the dashboard's code: what resolves there is a
    // dependency the root package.json must declare.
    settings: { "import/external-module-folders": ["node_modules", ...WORKSPACES] },
    rules: {
      "import/no-extraneous-dependencies": ["error", { packageDir: ROOT }],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^@/(${WORKSPACE_ROOTS.join("|")})/`,
              message: "A workspace is imported by its package name (@marketplace/…), which package.json declares.",
            },
          ],
        },
      ],
    },
  },
  {
    // What `npm start` serves needs no devDependency: the sandbox, the kit and test helpers stay out.
    files: ["app/**", "components/**", "lib/**", "i18n/**", "proxy.ts", "instrumentation.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "import/no-extraneous-dependencies": ["error", { packageDir: ROOT, devDependencies: false }] },
  },
  ...WORKSPACES.map(checkedAgainstOwnManifest),
  {
    // The benchmarks measure the dashboard: its code, through `@/` (the root package, which no
    // manifest can declare), is theirs to import; packages come from bench/package.json.
    files: ["bench/**/*.{ts,tsx,js,mjs}"],
    settings: { "import/internal-regex": "^@/" },
  },
  {
    // The platform contract and the small packages depend on nothing of the dashboard's.
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
              regex: "^@/",
              message:
                "The sandbox and the kit use the platform's contract (@marketplace/api) and other packages by name, never the dashboard's code.",
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
