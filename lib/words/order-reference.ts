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

/** "#1042", or the platform's id cut to its last six characters when the order has no reference yet. */
export function orderLabel(order: { id: string; reference: number | null }): string {
  return order.reference === null ? `…${order.id.slice(-6)}` : orderReference(order.reference);
}
