// What the bulk price upload tells the seller, as codes with parameters: the parser
// (bulk-csv.ts), the engine (bulk-apply.ts) and the page's reducer (bulk-upload-state.ts) are pure
// code without a request (the engine also runs in `npm run bench:bulk-prices`), so they say what
// happened and the code that shows it words it in the seller's language
// (messages/<locale>/prices.json, `bulk.messages`). Plain module: server and browser alike.
import type { useTranslations } from "next-intl";

export type BulkMessage =
  // The file as a whole (parseBulkPriceCsv's `error`).
  | { code: "fileEmpty" }
  | { code: "headerMissing" }
  /** `columns`: comma-separated names; `count`: how many. */
  | { code: "headerLacks"; columns: string; count: number }
  | { code: "headerTwice"; column: string }
  | { code: "tooManyRows"; max: number }
  /** The line limit, reached with blank lines among the lines read: the seller may not see them, so the words name them. */
  | { code: "tooManyLines"; max: number }
  | { code: "noRows" }
  // One row (InvalidBulkPriceRow's `reason`). Cells are as the seller wrote them; `quoted` ones are
  // JSON-quoted ("promo"), so an empty or blank cell still shows.
  | { code: "unclosedQuote" }
  | { code: "missingColumns"; columns: string; count: number }
  | { code: "extraColumnsDecimalComma" }
  | { code: "extraColumns" }
  | { code: "skuEmpty" }
  | { code: "skuTooLong"; max: number }
  | { code: "typeEmpty" }
  | { code: "typeUnknown"; quoted: string }
  | { code: "valueEmpty" }
  | { code: "valueNegative"; value: string }
  | { code: "valueUnreadable"; quoted: string }
  | { code: "currencyEmpty" }
  | { code: "currencyUnknown"; quoted: string }
  /** `amount`: canonical currency units; `normalizer` as digits (never grouped: "1000"). */
  | { code: "tooPrecise"; amount: string; normalizer: string }
  | { code: "tooLarge"; amount: string }
  | { code: "notAnAmount"; amount: string }
  /** `first`: the line that counts, as digits. `type`: the CSV's own word (list / sell). */
  | { code: "duplicate"; first: string; type: string; sku: string }
  // The page (bulk-upload-state.ts).
  | { code: "chooseFile" }
  | { code: "fileTooLarge" }
  | { code: "previewUnanswered" }
  | { code: "stoppedAnswering" }
  | { code: "unchanged" }
  | { code: "notSent" }
  /** Held by the price guard and not confirmed, so not sent; `reasons` already in words. */
  | { code: "heldNotConfirmed"; reasons: string }
  // Applying a row (bulk-apply.ts): `cause` is what the platform or the network said.
  | { code: "noPriceId" }
  | { code: "gaveUp"; cause: string; attempts: number }
  /**
   * Words that are shown as they came: the platform's own (statusMessage, errors[].message), an
   * error's, or a sentence the server action already put in the seller's language.
   */
  | { code: "verbatim"; text: string };

export type BulkMessageCode = Exclude<BulkMessage["code"], "verbatim">;

/** `useTranslations("prices.bulk.messages")` or `await getTranslations("prices.bulk.messages")`. */
export type BulkMessageWords = ReturnType<typeof useTranslations<"prices.bulk.messages">>;

export const verbatim = (text: string): BulkMessage => ({ code: "verbatim", text });

/** The sentence the seller reads for `message`. */
export function describeBulkMessage(message: BulkMessage, t: BulkMessageWords): string {
  if (message.code === "verbatim") return message.text;
  const { code, ...values } = message;
  return t(code, values);
}
