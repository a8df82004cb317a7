import tsParser from "@typescript-eslint/parser";
import { RuleTester } from "eslint";
import { describe, it } from "vitest";
import { boundaries } from "../../scripts/lint/boundaries.mjs";

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({ languageOptions: { parser: tsParser, ecmaVersion: 2024, sourceType: "module" } });

tester.run("server-only-path", boundaries.rules["server-only-path"], {
  valid: [
    { filename: "/repo/lib/data/orders.server.ts", code: 'import "server-only";\nexport const a = 1;' },
    { filename: "/repo/lib/orders/net.ts", code: "export const a = 1;" },
    { filename: "/repo/lib/data/orders.test.ts", code: 'import "server-only";' },
  ],
  invalid: [
    { filename: "/repo/lib/data/orders.ts", code: 'import "server-only";\nexport const a = 1;', errors: [{ messageId: "unnamed" }] },
    { filename: "/repo/lib/data/orders.server.ts", code: "export const a = 1;", errors: [{ messageId: "unmarked" }] },
  ],
});

tester.run("client-imports", boundaries.rules["client-imports"], {
  valid: [
    { code: '"use client";\nimport { orderRow } from "@/lib/orders/order-rows";' },
    { code: 'import { listOrders } from "@/lib/data/orders.server";' },
    { code: '"use server";\nimport { listOrders } from "@/lib/data/orders.server";' },
  ],
  invalid: [
    { code: '"use client";\nimport { listOrders } from "@/lib/data/orders.server";', errors: [{ messageId: "server" }] },
    { code: '"use client";\nimport type { OrderRow } from "@/lib/data/orders.server";', errors: [{ messageId: "server" }] },
    { code: '"use client";\nexport { listOrders } from "./orders.server";', errors: [{ messageId: "server" }] },
    { code: '"use client";\nconst m = () => import("@/lib/data/orders.server");', errors: [{ messageId: "server" }] },
  ],
});
