// Codes with parameters: the parser, engine and reducer run without a request, so whoever shows
// a message words it (decision 0008).
import type { useTranslations } from "next-intl";

export type BulkMessage =
  | { code: "fileEmpty" }
  | { code: "headerMissing" }
  | { code: "headerLacks"; columns: string; count: number }
  | { code: "headerTwice"; column: string }
  | { code: "tooManyRows"; max: number }
  /** Blank lines counted toward the limit: the seller may not see them, so the words name them. */
  | { code: "tooManyLines"; max: number }
  | { code: "noRows" }
  // `quoted` cells are JSON-quoted, so an empty or blank cell still shows.
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
  /** `normalizer` as digits, never grouped. */
  | { code: "tooPrecise"; amount: string; normalizer: string }
  | { code: "tooLarge"; amount: string }
  | { code: "notAnAmount"; amount: string }
  | { code: "duplicate"; first: string; type: string; sku: string }
  | { code: "chooseFile" }
  | { code: "fileTooLarge" }
  | { code: "previewUnanswered" }
  | { code: "stoppedAnswering" }
  | { code: "unchanged" }
  | { code: "notSent" }
  /** `reasons` already in words. */
  | { code: "heldNotConfirmed"; reasons: string }
  | { code: "noPriceId" }
  /** An undo leaves a price that changed after the run, or was already back, as it is. */
  | { code: "undoChangedSince" }
  | { code: "undoAlreadyBack" }
  /** The run created the price: the platform cannot remove one, so there is nothing to go back to. */
  | { code: "undoNoPrevious" }
  /** A row an undo names that its run did not set (a changed page or a forged call). */
  | { code: "undoNotInRun" }
  | { code: "gaveUp"; cause: string; attempts: number }
  /** Shown as they came: the platform's words, or a sentence already in the seller's language. */
  | { code: "verbatim"; text: string };

export type BulkMessageCode = Exclude<BulkMessage["code"], "verbatim">;

export type BulkMessageWords = ReturnType<typeof useTranslations<"prices.bulk.messages">>;

export const verbatim = (text: string): BulkMessage => ({ code: "verbatim", text });

export function describeBulkMessage(message: BulkMessage, t: BulkMessageWords): string {
  if (message.code === "verbatim") return message.text;
  const { code, ...values } = message;
  return t(code, values);
}
