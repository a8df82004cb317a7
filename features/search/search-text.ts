// What the search box sends, as the server takes it (issue 42).

/** Longer texts are cut: nothing searched is longer (an e-mail, a name, a tracking number). */
export const SEARCH_MAX_LENGTH = 100;
export const SEARCH_MIN_LENGTH = 2;

/** Inner spaces collapsed; null when too short to search (a short reference of one digit still is). */
export function searchText(query: string): string | null {
  const text = query.replace(/\s+/g, " ").trim().slice(0, SEARCH_MAX_LENGTH);
  if (text.length >= SEARCH_MIN_LENGTH || /^\d$/.test(text)) return text;
  return null;
}
