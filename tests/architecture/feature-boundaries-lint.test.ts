import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { featureNames, featureZones } from "../../scripts/lint/features.mjs";

// The feature-slice rules (scripts/lint/features.mjs) fed imports they must refuse and imports they
// must let through, against this project's real files (the imported modules must resolve).
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The project's own configuration (its parser, resolver and the import plugin), with zones for `dependencies`. */
function linter(dependencies: Record<string, string[]>) {
  return new ESLint({
    cwd: ROOT,
    overrideConfig: [
      {
        files: ["**/*.{ts,tsx}"],
        // "prices" stands for any second feature: the rule is about the folder a file is in.
        rules: { "import/no-restricted-paths": ["error", { zones: featureZones(["audit", "prices"], dependencies) }] },
      },
    ],
  });
}

async function problems(file: string, code: string, dependencies: Record<string, string[]> = {}) {
  const [result] = await linter(dependencies).lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === "import/no-restricted-paths").map((message) => message.message);
}

describe("feature slices", () => {
  it("finds this project's features", () => {
    expect(featureNames(ROOT)).toEqual([
      "audit",
      "inbox",
      "notifications",
      "orders",
      "overview",
      "people",
      "prices",
      "sales",
      "search",
      "settings",
      "shipping",
      "shops",
      "skus",
      "webhooks",
    ]);
  });

  it("keeps the kernel and the UI kit below the features", async () => {
    expect(await problems("lib/orders/x.ts", 'import { auditExportResponse } from "@/features/audit";')).toEqual([
      expect.stringContaining("lib/ sits below the features"),
    ]);
    expect(await problems("components/ui/x.tsx", 'import { describeAuditEntry } from "@/features/audit/describe";')).toEqual([
      expect.stringContaining("components/ sits below the features"),
    ]);
  });

  it("lets the app's routes re-export a feature's page from its pages/ folder, and nothing else inside", async () => {
    expect(
      await problems("app/s/[shopId]/prices/page.tsx", 'export { PricesPage as default } from "@/features/prices/pages/prices-page";'),
    ).toEqual([]);
    expect(
      await problems("app/s/[shopId]/prices/page.tsx", 'import { EditPriceForm } from "@/features/prices/components/edit-price-form";'),
    ).toEqual([expect.stringContaining("The app reaches a feature only through its entry")]);
  });

  it("lets the app reach a feature through its entry only", async () => {
    expect(await problems("app/s/[shopId]/audit/page.tsx", 'import { auditExportResponse } from "@/features/audit";')).toEqual([]);
    expect(await problems("app/s/[shopId]/audit/page.tsx", 'import { listAuditEntries } from "@/features/audit/log.server";')).toEqual([
      expect.stringContaining('through its entry: import from "@/features/audit"'),
    ]);
  });

  it("lets a feature reach another only where the dependency is declared, and then through its entry", async () => {
    const entry = 'import { auditExportResponse } from "@/features/audit";';
    const inside = 'import { describeAuditEntry } from "@/features/audit/describe";';
    expect(await problems("features/prices/x.ts", entry)).toEqual([expect.stringContaining("does not depend on features/audit")]);
    expect(await problems("features/prices/x.ts", entry, { prices: ["audit"] })).toEqual([]);
    expect(await problems("features/prices/x.ts", inside, { prices: ["audit"] })).toEqual([
      expect.stringContaining('through its entry: import from "@/features/audit"'),
    ]);
    // A client component reaches another feature through its client entry, never its insides.
    const clientEntry = 'import { CostCell } from "@/features/prices/client";';
    const clientInside = 'import { CostCell } from "@/features/prices/costs/components/cost-cell";';
    expect(await problems("features/audit/components/x.tsx", clientEntry, { audit: ["prices"] })).toEqual([]);
    expect(await problems("features/audit/components/x.tsx", clientInside, { audit: ["prices"] })).toEqual([
      expect.stringContaining('through its entry: import from "@/features/prices"'),
    ]);
    expect(await problems("features/audit/components/x.tsx", clientEntry)).toEqual([
      expect.stringContaining("does not depend on features/prices"),
    ]);
    // Within a feature, anything goes; and the kernel is for everyone.
    expect(await problems("features/audit/x.ts", inside)).toEqual([]);
    expect(await problems("features/prices/x.ts", 'import { AUDIT_ACTIONS } from "@/lib/audit/kinds";')).toEqual([]);
  });
});
