// What may import a feature (features/<name>/), read by eslint.config.mjs as zones of
// `import/no-restricted-paths` (docs/decisions/0017-feature-slices.md):
// - lib/ and components/ are the kernel and the shared UI kit below the features: they import none.
// - the app's routes reach a feature only through its entries: features/<name>/index.ts (server
//   code, no React), features/<name>/pages/ (one module per page: a barrel of pages would bring
//   every page's client components into each route's JavaScript), features/<name>/components.ts
//   (components another feature renders) and features/<name>/client.ts (what a client component
//   may import: nothing server-only);
// - a feature reaches another only through those entries, and only where `dependencies` says so.
import { readdirSync } from "node:fs";
import path from "node:path";

/** A feature's public entries: its server code, its pages, components for other features, and what client components may import. */
export const ENTRIES = ["./index.ts", "./pages", "./components.ts", "./client.ts"];

/**
 * The feature folders under `root`/features.
 * @param {string} root
 */
export function featureNames(root) {
  return readdirSync(path.join(root, "features"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The zones for `features`, where `dependencies[a]` lists the features `a` may import.
 * @param {string[]} features
 * @param {Record<string, string[]>} dependencies
 */
export function featureZones(features, dependencies) {
  const below = ["lib", "components"].map((target) => ({
    target: `./${target}`,
    from: "./features",
    message: `${target}/ sits below the features and imports none of them: move the shared part down into ${target}/ (docs/decisions/0017-feature-slices.md).`,
  }));
  const throughEntry = features.flatMap((feature) => [
    {
      target: "./app",
      from: `./features/${feature}`,
      except: ENTRIES,
      message: `The app reaches a feature only through its entry: import from "@/features/${feature}", a page from "@/features/${feature}/pages/…", "@/features/${feature}/components" or, in a client component, "@/features/${feature}/client".`,
    },
    ...features
      .filter((other) => other !== feature)
      .map((other) => ({
        target: `./features/${other}`,
        from: `./features/${feature}`,
        except: (dependencies[other] ?? []).includes(feature) ? ENTRIES : [],
        message: (dependencies[other] ?? []).includes(feature)
          ? `A feature reaches another only through its entry: import from "@/features/${feature}", a page from "@/features/${feature}/pages/…", "@/features/${feature}/components" or, in a client component, "@/features/${feature}/client".`
          : `features/${other} does not depend on features/${feature}: declare the dependency in eslint.config.mjs and docs/decisions/0017-feature-slices.md, or move the shared part into lib/.`,
      })),
  ]);
  return [...below, ...throughEntry];
}
