// Lets a script import the dashboard's data modules directly. They start with
// `import "server-only"`, which throws outside React's server build; running the script with
// `--conditions=react-server` would also hand next-intl its server build, which some modules
// cannot load. So the marker alone is mapped to its empty module, as vitest.config.ts does.
import { createRequire, register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Call before the first dynamic import of a module that imports "server-only". */
export function stubServerOnly(): void {
  const empty = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve("server-only")), "empty.js")).href;
  const hooks = `export async function resolve(specifier, context, next) {
    return specifier === "server-only" ? { url: ${JSON.stringify(empty)}, shortCircuit: true } : next(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
