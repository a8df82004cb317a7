// `<input type="datetime-local">` speaks wall-clock time in the browser's time zone, while the
// URL and the platform speak instants (ISO 8601, UTC). These convert between the two.

/** A datetime-local value as an instant, or null when empty or unreadable. */
export function localToIso(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An instant as a datetime-local value in this browser's time zone ("" when absent). */
export function isoToLocal(value: string | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
