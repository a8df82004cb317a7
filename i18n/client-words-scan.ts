// Which message namespaces each route's client components read: the import graph of the app's
// source, followed from a route file through every import to its client modules ("use client"
// files and what they import), whose useTranslations("…") calls name the namespaces. Used by
// i18n/client-words.test.ts; a test helper, never bundled.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?"([^"]+)"/gm;
const DYNAMIC_IMPORT = /import\(\s*"([^"]+)"\s*\)/g;
const USE_TRANSLATIONS = /useTranslations\(\s*(?:"([^"]*)")?\s*\)/g;
const DIRECTIVE = (name: string) => new RegExp(`^(?:\\s*//[^\\n]*\\n|\\s*/\\*[\\s\\S]*?\\*/)*\\s*["']${name}["']`);
const USE_CLIENT = DIRECTIVE("use client");
const USE_SERVER = DIRECTIVE("use server");

export class SourceGraph {
  private readonly sources = new Map<string, string>();

  constructor(private readonly root: string) {}

  /** The file's source, read once. */
  private source(file: string): string {
    let text = this.sources.get(file);
    if (text === undefined) {
      text = readFileSync(file, "utf8");
      this.sources.set(file, text);
    }
    return text;
  }

  /** The project file an import names, or null for a package's. */
  private resolve(from: string, specifier: string): string | null {
    let base: string;
    if (specifier.startsWith("@/")) base = path.join(this.root, specifier.slice(2));
    else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
    else return null;
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return null;
  }

  private imports(file: string): string[] {
    const text = this.source(file);
    const found: string[] = [];
    for (const pattern of [STATIC_IMPORT, DYNAMIC_IMPORT]) {
      for (const match of text.matchAll(pattern)) {
        const resolved = this.resolve(file, match[1]!);
        if (resolved) found.push(resolved);
      }
    }
    return found;
  }

  /**
   * The modules a route file's client components are made of: its client modules and what they
   * import, short of server actions and server-only modules (the browser gets a reference to an
   * action, never its code).
   */
  clientClosure(routeFile: string): Set<string> {
    const entries = [...this.closure([routeFile])].filter((file) => this.isClientModule(file));
    return this.closure(entries, (file) => !/\.server\.tsx?$/.test(file) && !USE_SERVER.test(this.source(file)));
  }

  /** Every file the entries import, directly or not, themselves included. */
  private closure(entries: readonly string[], follow: (file: string) => boolean = () => true): Set<string> {
    const seen = new Set<string>();
    const queue = [...entries];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file) || !follow(file)) continue;
      seen.add(file);
      queue.push(...this.imports(file));
    }
    return seen;
  }

  isClientModule(file: string): boolean {
    return USE_CLIENT.test(this.source(file));
  }

  /**
   * The namespaces the client components a route file renders read ("" for a whole catalogue,
   * useTranslations() without one), with the files that read each.
   */
  clientNamespaces(routeFile: string): Map<string, string[]> {
    const namespaces = new Map<string, string[]>();
    for (const file of this.clientClosure(routeFile)) {
      for (const match of this.source(file).matchAll(USE_TRANSLATIONS)) {
        const namespace = match[1] ?? "";
        namespaces.set(namespace, [...(namespaces.get(namespace) ?? []), path.relative(this.root, file)]);
      }
    }
    return namespaces;
  }

  /** The app's route files (pages, layouts, error and not-found pages), API routes aside. */
  routeFiles(): string[] {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== "api") walk(full);
        } else if (/^(page|layout|error|not-found|loading)\.tsx$/.test(name)) found.push(full);
      }
    };
    walk(path.join(this.root, "app"));
    return found.sort();
  }
}
