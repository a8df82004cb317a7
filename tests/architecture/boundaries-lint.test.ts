import path from "node:path";
import tsParser from "@typescript-eslint/parser";
import { RuleTester } from "eslint";
import { describe, it } from "vitest";
import { boundaries } from "../../scripts/lint/boundaries.mjs";

// The project itself, for the rule that follows imports from its client components.
const ROOT = path.resolve(import.meta.dirname, "../..");
const inProject = (file: string) => path.join(ROOT, file);

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({ languageOptions: { parser: tsParser, ecmaVersion: 2024, sourceType: "module" } });

tester.run("server-only-path", boundaries.rules["server-only-path"], {
  valid: [
    { filename: "/repo/features/orders/orders.server.ts", code: 'import "server-only";\nexport const a = 1;' },
    { filename: "/repo/lib/orders/net.ts", code: "export const a = 1;" },
    { filename: "/repo/features/orders/orders.test.ts", code: 'import "server-only";' },
  ],
  invalid: [
    { filename: "/repo/features/orders/orders.ts", code: 'import "server-only";\nexport const a = 1;', errors: [{ messageId: "unnamed" }] },
    { filename: "/repo/features/orders/orders.server.ts", code: "export const a = 1;", errors: [{ messageId: "unmarked" }] },
  ],
});

tester.run("client-imports", boundaries.rules["client-imports"], {
  valid: [
    { code: '"use client";\nimport { orderRow } from "@/features/orders/order-rows";' },
    { code: 'import { listOrders } from "@/features/orders/orders.server";' },
    { code: '"use server";\nimport { listOrders } from "@/features/orders/orders.server";' },
    // Server code no client component reaches; and a server action, whose importers get a reference.
    { filename: inProject("features/orders/orders.server.ts"), code: 'import { withPlatform } from "@/lib/platform/platform.server";' },
    {
      filename: inProject("features/prices/actions.ts"),
      code: '"use server";\nimport { withPlatform } from "@/lib/platform/platform.server";',
    },
  ],
  invalid: [
    { code: '"use client";\nimport { listOrders } from "@/features/orders/orders.server";', errors: [{ messageId: "server" }] },
    { code: '"use client";\nimport type { OrderRow } from "@/features/orders/orders.server";', errors: [{ messageId: "server" }] },
    { code: '"use client";\nexport { listOrders } from "./orders.server";', errors: [{ messageId: "server" }] },
    { code: '"use client";\nconst m = () => import("@/features/orders/orders.server");', errors: [{ messageId: "server" }] },
    // Without "use client" of its own: the table kit's fetch helper is imported by client components.
    {
      filename: inProject("lib/api-client.ts"),
      code: 'import type { PlatformProblem } from "@/lib/platform/platform.server";',
      errors: [{ messageId: "reached" }],
    },
    // Two steps away: a client component imports bulk-upload-state, which imports bulk-csv.
    {
      filename: inProject("features/prices/bulk/bulk-csv.ts"),
      code: 'import type { PlatformProblem } from "@/lib/platform/platform.server";',
      errors: [{ messageId: "reached" }],
    },
  ],
});
