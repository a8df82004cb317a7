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

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** Words a trigram index can look up (three characters or more): each must appear, in any order. */
export const MAX_SEARCH_WORDS = 4;

export function wordPatterns(folded: string): string[] {
  return [...new Set(folded.split(" ").filter((word) => word.length >= 3))].slice(0, MAX_SEARCH_WORDS).map(containing);
}
