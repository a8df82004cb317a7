// One rule for every CSV the dashboard writes (the orders export, the bulk price results): a text
// cell a spreadsheet would run as a formula is written as text. OWASP "CSV Injection". Pure:
// the server and the browser both write CSV.

/**
 * A cell starting with one of these runs as a formula in Excel, LibreOffice or Google Sheets: the
 * OWASP list (= + - @, tab, CR) and the full-width forms of the four signs (U+FF1D ＝, U+FF0B ＋, U+FF0D －,
 * U+FF20 ＠), which some spreadsheets set up for East Asian input are reported to read as the ASCII
 * sign. An apostrophe on the rare honest cell that starts with one costs less than a formula that runs.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Whether a spreadsheet would read `text` (a cell's whole content) as a formula. */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/**
 * `text` as a safe text cell: a leading apostrophe when it starts like a formula, which the
 * spreadsheet shows as text. Only the first character is tested, so a line break later in the
 * cell changes nothing; the CSV writer then quotes the cell, apostrophe inside the quotes. Give it
 * text from the platform or the seller, never the numbers the dashboard formats: "-12,50" must stay
 * a number.
 */
export function escapeCsvCell(text: string): string {
  return startsLikeFormula(text) ? `'${text}` : text;
}
