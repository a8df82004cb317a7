// Where the sales page reads a period from (decision 0022): the roll-up holds a shop's orders summed
// by the UTC hour, day and month they were placed in, so a period is cut into the fewest whole UTC
// months, days and hours it contains, and the parts of an hour at either end (a period that ends
// now, or a zone whose offset is not whole hours) are read from the orders themselves. A SKU's
// rows are days and months only: a period's ends read up to a day of orders for its products.

export type Grain = "month" | "day" | "hour";
/** Coarsest first. */
export const GRAINS: readonly Grain[] = ["month", "day", "hour"];

export interface Piece {
  /** "orders": read from the order mirror. */
  grain: Grain | "orders";
  from: Date;
  to: Date;
}

function floorTo(grain: Grain, instant: Date): Date {
  const floored = new Date(instant);
  if (grain === "month") floored.setUTCDate(1);
  if (grain === "hour") floored.setUTCMinutes(0, 0, 0);
  else floored.setUTCHours(0, 0, 0, 0);
  return floored;
}

function ceilTo(grain: Grain, instant: Date): Date {
  const floored = floorTo(grain, instant);
  if (floored.getTime() === instant.getTime()) return floored;
  if (grain === "month") floored.setUTCMonth(floored.getUTCMonth() + 1);
  else if (grain === "day") floored.setUTCDate(floored.getUTCDate() + 1);
  else floored.setUTCHours(floored.getUTCHours() + 1);
  return floored;
}

/** [from, to) as consecutive pieces, each whole in its grain, the coarsest that fit. */
export function piecesOf(from: Date, to: Date, grains: readonly Grain[] = GRAINS): Piece[] {
  if (from >= to) return [];
  const [grain, ...finer] = grains;
  if (!grain) return [{ grain: "orders", from, to }];
  const start = ceilTo(grain, from);
  const end = floorTo(grain, to);
  if (start > end) return piecesOf(from, to, finer);
  // One boundary inside and no whole unit: two ends, each shorter than the unit.
  if (start.getTime() === end.getTime()) {
    return from < start && start < to ? [...piecesOf(from, start, finer), ...piecesOf(start, to, finer)] : piecesOf(from, to, finer);
  }
  return [...piecesOf(from, start, finer), { grain, from: start, to: end }, ...piecesOf(end, to, finer)];
}

/**
 * A period's pieces as the sales statements take them: text arrays of grains and ISO instants.
 * `grains`: those the roll-up keeps for what is read (a SKU has no hour rows).
 */
export function pieceParameters(from: Date, to: Date, grains: readonly Grain[] = GRAINS) {
  const pieces = piecesOf(from, to, grains);
  const rolled = pieces.filter((piece) => piece.grain !== "orders");
  const read = pieces.filter((piece) => piece.grain === "orders");
  // The hours between the two ends read from orders: what the chart's days are summed from.
  const hours = piecesOf(from, to, ["hour"]).find((piece) => piece.grain === "hour");
  return {
    grains: rolled.map((piece) => piece.grain),
    froms: rolled.map((piece) => piece.from.toISOString()),
    tos: rolled.map((piece) => piece.to.toISOString()),
    orderFroms: read.map((piece) => piece.from.toISOString()),
    orderTos: read.map((piece) => piece.to.toISOString()),
    hourFrom: (hours?.from ?? from).toISOString(),
    hourTo: (hours?.to ?? from).toISOString(),
  };
}
