import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GRAINS, piecesOf } from "@/features/sales/rollup-pieces";
import type { Grain } from "@/features/sales/rollup-pieces";

const aligned = (grain: Grain, instant: Date) =>
  instant.getUTCMinutes() === 0 &&
  instant.getUTCSeconds() === 0 &&
  instant.getUTCMilliseconds() === 0 &&
  (grain === "hour" || instant.getUTCHours() === 0) &&
  (grain !== "month" || instant.getUTCDate() === 1);

const instant = fc.date({ min: new Date("2025-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true });
// Often on a whole hour, as a day in a zone of whole-hour offset starts.
const boundary = fc.oneof(
  instant,
  instant.map((date) => new Date(Math.floor(date.getTime() / 3_600_000) * 3_600_000)),
);

describe("piecesOf", () => {
  it("cuts a period into consecutive pieces that cover it exactly, each whole in its grain", () => {
    fc.assert(
      fc.property(boundary, boundary, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const pieces = piecesOf(from, to);
        if (from.getTime() === to.getTime()) {
          expect(pieces).toEqual([]);
          return;
        }
        expect(pieces[0]!.from).toEqual(from);
        expect(pieces.at(-1)!.to).toEqual(to);
        pieces.forEach((piece, index) => {
          expect(piece.from < piece.to).toBe(true);
          if (index > 0) expect(piece.from).toEqual(pieces[index - 1]!.to);
          if (piece.grain !== "orders") expect(aligned(piece.grain, piece.from) && aligned(piece.grain, piece.to)).toBe(true);
        });
        // Orders are read only for the parts of an hour at either end.
        const read = pieces.filter((piece) => piece.grain === "orders");
        expect(read.length).toBeLessThanOrEqual(2);
        for (const piece of read) expect(piece.to.getTime() - piece.from.getTime()).toBeLessThan(3_600_000);
      }),
    );
  });

  it("reads thirty days of São Paulo ending now from a few pieces, not thirty days of orders", () => {
    const from = new Date("2026-10-31T03:00:00Z");
    const now = new Date("2026-11-29T18:42:10Z");
    expect(piecesOf(from, now).map((piece) => [piece.grain, piece.from.toISOString(), piece.to.toISOString()])).toEqual([
      ["hour", "2026-10-31T03:00:00.000Z", "2026-11-01T00:00:00.000Z"],
      ["day", "2026-11-01T00:00:00.000Z", "2026-11-29T00:00:00.000Z"],
      ["hour", "2026-11-29T00:00:00.000Z", "2026-11-29T18:00:00.000Z"],
      ["orders", "2026-11-29T18:00:00.000Z", "2026-11-29T18:42:10.000Z"],
    ]);
  });

  it("reads less than a day of orders at either end when hours are not kept", () => {
    fc.assert(
      fc.property(boundary, boundary, (a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const pieces = piecesOf(from, to, ["month", "day"]);
        expect(pieces.map((piece) => piece.grain).every((grain) => grain !== "hour")).toBe(true);
        for (const piece of pieces.filter((piece) => piece.grain === "orders"))
          expect(piece.to.getTime() - piece.from.getTime()).toBeLessThan(86_400_000);
        expect(pieces.reduce((sum, piece) => sum + piece.to.getTime() - piece.from.getTime(), 0)).toBe(to.getTime() - from.getTime());
      }),
    );
  });

  it("uses whole months inside a year", () => {
    const pieces = piecesOf(new Date("2025-11-30T03:00:00Z"), new Date("2026-11-30T03:00:00Z"));
    expect(pieces.filter((piece) => piece.grain === "month")).toEqual([
      { grain: "month", from: new Date("2025-12-01T00:00:00Z"), to: new Date("2026-11-01T00:00:00Z") },
    ]);
    expect(pieces.length).toBeLessThanOrEqual(2 * GRAINS.length + 1);
  });
});
