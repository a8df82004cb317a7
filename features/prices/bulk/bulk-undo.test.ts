import { describe, expect, it } from "vitest";
import { foldRunEntries, undoGate, undoPlanOf, undoStep } from "./bulk-undo";
import type { RunChange } from "./bulk-undo";
import type { BulkPreview } from "./bulk-preview-rows";

// Undoing a bulk change (issue 40, point 10): each price goes back to what the platform held just
// before the run, only from the price the run left, once.
const brl = (value: number) => ({ value, currency: "BRL", normalizer: 100 });
const change = (before: number | null, after: number, sku = "CAM-001"): RunChange => ({
  sku,
  type: "sell",
  before: before === null ? null : brl(before),
  after: brl(after),
});

describe("undoStep", () => {
  it("sends the price the run replaced while the platform still holds the run's price", () => {
    expect(undoStep(change(4990, 4490), brl(4490))).toEqual({ send: brl(4990) });
  });

  it("keeps a price changed since the run, by anyone", () => {
    expect(undoStep(change(4990, 4490), brl(4390))).toEqual({ skip: "undoChangedSince" });
    expect(undoStep(change(4990, 4490), { value: 4490, currency: "USD", normalizer: 100 })).toEqual({ skip: "undoChangedSince" });
    expect(undoStep(change(4990, 4490), null)).toEqual({ skip: "undoChangedSince" });
  });

  it("sends nothing for a price already back, so undoing twice sends once", () => {
    expect(undoStep(change(4990, 4490), brl(4990))).toEqual({ skip: "undoAlreadyBack" });
  });

  it("has nothing to go back to for a price the run created", () => {
    expect(undoStep(change(null, 4490), brl(4490))).toEqual({ skip: "undoNoPrevious" });
  });
});

describe("foldRunEntries", () => {
  it("keeps the first 'before' and the last 'after' of a price a batch sent twice", () => {
    const folded = foldRunEntries([
      { sku: "A", type: "sell", before: brl(1000), after: brl(900) },
      { sku: "A", type: "list", before: brl(1200), after: brl(1080) },
      // The batch's answer was lost and it was sent again: its "before" is the run's own price.
      { sku: "A", type: "sell", before: brl(900), after: brl(900) },
    ]);
    expect(folded).toEqual([
      { sku: "A", type: "sell", before: brl(1000), after: brl(900) },
      { sku: "A", type: "list", before: brl(1200), after: brl(1080) },
    ]);
  });
});

describe("undoGate", () => {
  const gate = undoGate([change(4990, 4490, "A"), change(null, 3000, "B")]);
  const row = (sku: string, value: number) => ({ sku, type: "sell" as const, ...brl(value) });

  it("lets through only what undoing the run sends", () => {
    expect(gate.refuse(row("A", 4990))).toBeNull();
    expect(gate.refuse(row("A", 100))).toBe("undoNotInRun");
    expect(gate.refuse(row("B", 3000))).toBe("undoNotInRun");
    expect(gate.refuse(row("C", 4990))).toBe("undoNotInRun");
    expect(gate.refuse({ ...row("A", 4990), type: "list" })).toBe("undoNotInRun");
  });

  it("judges again on the prices read just before sending", () => {
    expect(gate.skip(row("A", 4990), { list: null, sell: brl(4490) })).toBeNull();
    expect(gate.skip(row("A", 4990), { list: null, sell: brl(4590) })).toBe("undoChangedSince");
    expect(gate.skip(row("A", 4990), { list: null, sell: brl(4990) })).toBe("undoAlreadyBack");
  });
});

describe("undoPlanOf", () => {
  it("shows an undo's preview as a plan: prices going back, and those kept with why", () => {
    const current = { id: "p1", value: 4490, currency: "BRL", normalizer: 100 };
    const preview: BulkPreview = {
      rows: [
        { line: 2, sku: "A", type: "sell", amount: "49.9", ...brl(4990), kind: "changed", current },
        {
          line: 3,
          sku: "B",
          type: "sell",
          value: "45.9",
          currency: "BRL",
          reason: { code: "undoChangedSince" },
          kind: "invalid",
          kept: { ...current, id: "p2", value: 4590 },
        },
        { line: 4, sku: "C", type: "list", value: "", currency: "", reason: { code: "undoNoPrevious" }, kind: "invalid" },
      ],
      counts: { changed: 1, new: 0, unchanged: 0, invalid: 2 },
      names: {},
      complete: true,
      pricesSeen: 3,
      source: "undo",
      undoOf: "run",
    };
    expect(undoPlanOf(preview)).toEqual([
      { sku: "A", type: "sell", value: 4990, currency: "BRL", normalizer: 100, amount: "49.9", kind: "changed", current },
      { sku: "B", type: "sell", kind: "invalid", current: { ...current, id: "p2", value: 4590 }, problem: "changed_since" },
      { sku: "C", type: "list", kind: "invalid", current: null, problem: "no_previous" },
    ]);
  });
});
