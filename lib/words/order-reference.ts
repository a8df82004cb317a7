// How a short order reference (decision 0018) is written and read back: "#1042" everywhere, and a
// search for "#1042", "1042" or "nº 1042" finds it.

export function orderReference(number: number): string {
  return `#${number}`;
}

/** The number a search names, or null when it is not a reference (the platform's id, say). */
export function parseOrderReference(text: string): number | null {
  const match = /^\s*(?:#|n[º°o]\.?\s*)?(\d{1,9})\s*$/i.exec(text);
  return match ? Number(match[1]) : null;
}

/** A platform id where a person reads it: its last six characters ("…00a969"). */
export function idEnding(id: string): string {
  return `…${id.slice(-6)}`;
}

/** "#1042", or the end of the platform's id when the order has no reference yet. */
export function orderLabel(order: { id: string; reference: number | null }): string {
  return order.reference === null ? idEnding(order.id) : orderReference(order.reference);
}
