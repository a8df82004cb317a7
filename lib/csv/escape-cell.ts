// One formula rule (OWASP "CSV Injection") for every CSV the dashboard writes, server and browser.

/**
 * OWASP's list plus the full-width signs, which some East Asian spreadsheet setups read as ASCII.
 * An apostrophe on a rare honest cell costs less than a formula that runs.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** For text from the platform or the seller only, never formatted numbers: "-12,50" must stay a number. */
export function escapeCsvCell(text: string): string {
  return startsLikeFormula(text) ? `'${text}` : text;
}
