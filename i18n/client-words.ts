// The words the browser is given, per part of the app: the message namespaces the client components
// under each layout read (decision 0008). A page's client components once received every catalogue
// of the language, 85 kB on every page, the largest part of its HTML (bench:mobile, issue 40).
// i18n/client-words.test.ts follows each route's imports to its client components and fails when
// one reads a namespace its layout does not give, or a list names one nobody there reads.

/** A layout that hands words to the client components below it: its folder under app/. */
export type WordsLayout = keyof typeof CLIENT_WORDS;

/** Dotted paths into the catalogue ("orders.table"), each given whole. */
export const CLIENT_WORDS = {
  // The header, the landing, sign-in, the account and invitation pages, and the error page.
  "": ["shell", "common.error", "people.passkeys", "inbox.bell", "notifications.device", "search.header"],
  // The search page (issue 42).
  search: ["search"],
  // A shop's own layout (live updates, the shop just connected) and its smaller sections.
  "s/[shopId]": ["shell", "webhooks.live", "words", "overview.setupGuide", "members", "settings.prices", "settings.timeZone"],
  // The sections with a table: its filters name their words by key (lib/tables/table-params.ts).
  "s/[shopId]/orders": ["orders.table", "orders.filters", "orders.export", "common.table", "connect", "problems", "words"],
  "s/[shopId]/prices": ["prices", "common.table", "connect", "problems"],
  "s/[shopId]/skus": ["skus", "prices.costs.cell", "common.table", "connect", "problems"],
  "s/[shopId]/shipping": ["shipping", "common.table", "connect", "problems", "words"],
  "s/[shopId]/webhooks": ["webhooks", "common.table", "connect", "problems", "words"],
} as const satisfies Record<string, readonly string[]>;

/** The parts of `messages` at `paths`, each whole, in the same shape. */
export function pickWords(messages: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const dotted of paths) {
    const parts = dotted.split(".");
    let source: unknown = messages;
    for (const part of parts)
      source = source !== null && typeof source === "object" ? (source as Record<string, unknown>)[part] : undefined;
    if (source === undefined) continue;
    let target = picked;
    for (const part of parts.slice(0, -1)) {
      const next = target[part];
      target = (target[part] = next !== null && typeof next === "object" ? next : {}) as Record<string, unknown>;
    }
    target[parts.at(-1)!] = source;
  }
  return picked;
}
